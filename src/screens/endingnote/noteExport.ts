import { bridge, isAppWebView, saveFileInApp } from '../../services/bridge';
import { downloadExport, fetchExportFile, openPrintView } from '../../services/api/endingnote';

/**
 * Print and export of the whole note. In a browser: a print tab and a download. In the app's
 * web view, which has neither, the app prints and keeps the file (docs/native-bridge.md).
 */
export async function printNote(userId: string): Promise<void> {
  if (!isAppWebView()) return openPrintView(userId);
  const { fileName, file } = await fetchExportFile(userId, 'html');
  await bridge.call('print', { title: fileName.replace(/\.html$/, ''), html: await file.text() });
}

export async function saveNote(userId: string, format: 'json' | 'html'): Promise<void> {
  if (!isAppWebView()) return downloadExport(userId, format);
  const { fileName, file } = await fetchExportFile(userId, format);
  await saveFileInApp(file, fileName);
}
