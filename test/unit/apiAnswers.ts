import { AxiosError, AxiosHeaders } from 'axios';
import { http } from '../../src/services/http';

/**
 * The network end of the app's one HTTP client, answering JSON by path (query included) and
 * 404 for anything else. Returns the paths asked, in order.
 */
export function answerApi(answers: Record<string, unknown>): string[] {
  const asked: string[] = [];
  http.defaults.adapter = async (config) => {
    const path = config.url ?? '';
    asked.push(path);
    const known = path in answers;
    const response = {
      data: JSON.stringify(known ? answers[path] : { detail: 'not found' }),
      status: known ? 200 : 404,
      statusText: known ? 'OK' : 'Not Found',
      headers: new AxiosHeaders({ 'content-type': 'application/json' }),
      config,
    };
    if (known) return response;
    throw new AxiosError('404', 'ERR_BAD_REQUEST', config, undefined, response);
  };
  return asked;
}
