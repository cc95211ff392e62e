import yauzl from 'yauzl';

export interface UnzippedEntry {
  body: Buffer;
  /** 0: stored as it is; 8: deflated. */
  compressionMethod: number;
}

/** Every file of a ZIP archive by its path, read with yauzl (an independent reader). */
export async function unzip(archive: Buffer): Promise<Map<string, UnzippedEntry>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, opened) =>
      error ? reject(error) : resolve(opened),
    ),
  );
  const files = new Map<string, UnzippedEntry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          files.set(entry.fileName, {
            body: Buffer.concat(chunks),
            compressionMethod: entry.compressionMethod,
          });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return files;
}
