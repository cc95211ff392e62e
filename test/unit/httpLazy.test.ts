import axios, { AxiosError, AxiosHeaders } from 'axios';
import { describe, expect, it } from 'vitest';
import { isHttpError } from '../../src/services/http/lazy';

describe('isHttpError', () => {
  const config = { headers: new AxiosHeaders() };
  const cases: [string, unknown][] = [
    [
      'an error axios made from an answer',
      new AxiosError('refused', 'ERR_BAD_REQUEST', config, undefined, {
        status: 404,
        statusText: 'Not Found',
        data: {},
        headers: {},
        config,
      }),
    ],
    ['a network failure', new AxiosError('Network Error', 'ERR_NETWORK', config)],
    ['a plain error', new Error('boom')],
    ['a cancellation', new axios.CanceledError()],
    ['an object without the flag', { response: { status: 404 } }],
    ['a flag that is not true', { isAxiosError: 'yes' }],
    ['null', null],
    ['a string', 'failed'],
  ];

  it.each(cases)('answers as axios.isAxiosError does for %s', (_name, error) => {
    expect(isHttpError(error)).toBe(axios.isAxiosError(error));
  });

  it('knows the errors axios makes', () => {
    expect(isHttpError(cases[0]![1])).toBe(true);
  });
});
