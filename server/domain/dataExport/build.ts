import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { ObjectStore } from '../../storage/objectStore';
import type { ArchiveEntry } from './collect';

/** What each file of a member's archive is, for its README (in the member's language). */
export const MEMBER_README = `しのぶ（Shinobu）に登録されている、あなたのデータの控えです。

  profile.json               プロフィール（お名前、メールアドレス、ログイン方法など）
  profile_icon/              プロフィールの画像
  connections.json           つながりと、つながり申請
  memorial_pages/<ID>/       管理しているメモリアルページごとのフォルダ
    page.json                  ページの内容と、管理者・閲覧者
    album.json, album/         アルバムの写真の説明と、写真の元のファイル
    history.json, history/     ヒストリーと、その写真
    condolences.json           記帳
    flowers.json               献花
  letters/written.json       あなたが書いたタイムカプセルの手紙と宛先
  letters/received.json      あなたに届いた手紙
  letters/<ID>/              手紙の写真
  ending_note.json           エンディングノート（読める形にしてあります）
  death_settings.json        見守り役と確認の設定、見守りの記録
  death_documents/           あなたについてのご逝去の報告に添えられた書類
  integration_links.json     連携しているサービス
  notifications.json         お知らせ

JSON ファイルは UTF-8 で書かれています。日時は世界標準時（UTC）で記録しています。
このファイルには大切な個人情報が含まれます。保管する場所にご注意ください。
`;

/** What each file of a memorial page's keepsake is, for its README. */
export const KEEPSAKE_README = `しのぶ（Shinobu）のメモリアルページを、ご家族の記念に残すための控えです。

  book.html          ページを一冊の本のようにまとめたものです。ブラウザで開いて印刷できます
                     （しのぶにつながっていなくても読めます。A5 の大きさで印刷されます）
  page.json          ページの内容と、管理者・閲覧者
  album.json, album/       アルバムの写真の説明と、写真の元のファイル
  history.json, history/   ヒストリーと、その写真
  condolences.json   記帳
  flowers.json       献花
  そのほかの画像     ページの表紙の写真

JSON ファイルは UTF-8 で書かれています。日時は世界標準時（UTC）で記録しています。
`;

function readme(head: string, unreadable: string[]): string {
  if (unreadable.length === 0) return head;
  return (
    `${head}\n次のファイルは、作成の時点で読み込めなかったため含まれていません。` +
    `時間をおいて、もう一度書き出しをお申し込みください。\n\n` +
    unreadable.map((path) => `  ${path}\n`).join('')
  );
}

/**
 * Writes the archive of `entries` into the store as `objectName`, streaming: JSON files are
 * compressed, photos are stored as they are (they are compressed already) and only one photo
 * is open at a time. A photo the store cannot give is left out and named in README.txt,
 * written last. Answers the archive's size in bytes.
 */
export async function buildArchive(
  store: ObjectStore,
  objectName: string,
  entries: AsyncIterable<ArchiveEntry>,
  at: Date,
  readmeHead: string,
): Promise<number> {
  const zip = new ZipFile();
  // yazl's output is a PassThrough; its types name only the ReadableStream interface.
  const output = zip.outputStream as Readable;
  // A failure of the zip itself ends the upload with it, which then removes what it wrote.
  zip.on('error', (error: Error) => output.destroy(error));
  // The store may not listen yet (it opens its upload first); its promise carries the failure.
  output.on('error', () => undefined);
  const stored = store.putStream(objectName, output, 'application/zip');
  // A store that fails stops reading the zip: waiting on a photo must not outlive it.
  const storeFailed = new Promise<never>((_resolve, reject) => void stored.catch(reject));
  storeFailed.catch(() => undefined);
  const written = new Set<string>();
  const unreadable: string[] = [];
  try {
    for await (const entry of entries) {
      if (written.has(entry.path)) continue;
      written.add(entry.path);
      if ('json' in entry || 'text' in entry) {
        const body = 'json' in entry ? `${JSON.stringify(entry.json, null, 2)}\n` : entry.text;
        zip.addBuffer(Buffer.from(body), entry.path, { mtime: at });
        continue;
      }
      const object = await store.getStream(entry.objectName).catch(() => undefined);
      if (!object) {
        unreadable.push(entry.path);
        continue;
      }
      zip.addReadStream(object.body, entry.path, { mtime: at, compress: false });
      // The next photo is opened only once the zip has read this one.
      await Promise.race([finished(object.body), storeFailed]).catch((error: unknown) => {
        object.body.destroy();
        throw error;
      });
    }
    zip.addBuffer(Buffer.from(readme(readmeHead, unreadable)), 'README.txt', { mtime: at });
    zip.end();
  } catch (error) {
    output.destroy(error as Error);
    await stored.catch(() => undefined);
    throw error;
  }
  return stored;
}
