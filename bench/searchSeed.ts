/**
 * Seeds members for the user-search and notification benchmarks: common Japanese family and
 * given names (kanji with their hiragana readings) combined at random with a fixed seed, so
 * that every run searches the same population. Rows go in through the users table in
 * batches; the search grams follow through the 0050 trigger as they would in production.
 */
import type { Db } from '../server/db/database';
import { users } from '../server/db/schema';
import { nameReadingOf } from '../contract/rules/nameReading';

/** [kanji, reading] — frequent family names, several sharing pieces (山, 田, 藤) on purpose. */
export const FAMILY_NAMES: readonly (readonly [string, string])[] = [
  ['佐藤', 'さとう'],
  ['鈴木', 'すずき'],
  ['高橋', 'たかはし'],
  ['田中', 'たなか'],
  ['伊藤', 'いとう'],
  ['渡辺', 'わたなべ'],
  ['山本', 'やまもと'],
  ['中村', 'なかむら'],
  ['小林', 'こばやし'],
  ['加藤', 'かとう'],
  ['吉田', 'よしだ'],
  ['山田', 'やまだ'],
  ['佐々木', 'ささき'],
  ['山口', 'やまぐち'],
  ['松本', 'まつもと'],
  ['井上', 'いのうえ'],
  ['木村', 'きむら'],
  ['林', 'はやし'],
  ['斎藤', 'さいとう'],
  ['清水', 'しみず'],
  ['山崎', 'やまざき'],
  ['森', 'もり'],
  ['池田', 'いけだ'],
  ['橋本', 'はしもと'],
  ['阿部', 'あべ'],
  ['石川', 'いしかわ'],
  ['山下', 'やました'],
  ['中島', 'なかじま'],
  ['石井', 'いしい'],
  ['小川', 'おがわ'],
  ['前田', 'まえだ'],
  ['岡田', 'おかだ'],
  ['長谷川', 'はせがわ'],
  ['藤田', 'ふじた'],
  ['後藤', 'ごとう'],
  ['近藤', 'こんどう'],
  ['村上', 'むらかみ'],
  ['遠藤', 'えんどう'],
  ['青木', 'あおき'],
  ['坂本', 'さかもと'],
  ['斉藤', 'さいとう'],
  ['福田', 'ふくだ'],
  ['太田', 'おおた'],
  ['西村', 'にしむら'],
  ['藤井', 'ふじい'],
  ['金子', 'かねこ'],
  ['岡本', 'おかもと'],
  ['藤原', 'ふじわら'],
  ['中野', 'なかの'],
  ['三浦', 'みうら'],
  ['原田', 'はらだ'],
  ['中川', 'なかがわ'],
  ['松田', 'まつだ'],
  ['竹内', 'たけうち'],
  ['小野', 'おの'],
  ['田村', 'たむら'],
  ['中山', 'なかやま'],
  ['和田', 'わだ'],
  ['石田', 'いしだ'],
  ['森田', 'もりた'],
];

export const GIVEN_NAMES: readonly (readonly [string, string])[] = [
  ['太郎', 'たろう'],
  ['花子', 'はなこ'],
  ['一郎', 'いちろう'],
  ['健太', 'けんた'],
  ['翔太', 'しょうた'],
  ['大輔', 'だいすけ'],
  ['誠', 'まこと'],
  ['博', 'ひろし'],
  ['茂', 'しげる'],
  ['清', 'きよし'],
  ['実', 'みのる'],
  ['勇', 'いさむ'],
  ['和子', 'かずこ'],
  ['幸子', 'さちこ'],
  ['節子', 'せつこ'],
  ['洋子', 'ようこ'],
  ['恵子', 'けいこ'],
  ['京子', 'きょうこ'],
  ['美香', 'みか'],
  ['陽子', 'ようこ'],
  ['裕子', 'ゆうこ'],
  ['直美', 'なおみ'],
  ['由美', 'ゆみ'],
  ['明美', 'あけみ'],
  ['拓也', 'たくや'],
  ['直樹', 'なおき'],
  ['達也', 'たつや'],
  ['浩二', 'こうじ'],
  ['健一', 'けんいち'],
  ['正男', 'まさお'],
  ['蓮', 'れん'],
  ['陽翔', 'はると'],
  ['湊', 'みなと'],
  ['悠真', 'ゆうま'],
  ['結菜', 'ゆいな'],
  ['陽菜', 'ひな'],
  ['芽依', 'めい'],
  ['葵', 'あおい'],
  ['凛', 'りん'],
  ['美咲', 'みさき'],
  ['さくら', 'さくら'],
  ['大翔', 'ひろと'],
  ['樹', 'いつき'],
  ['翼', 'つばさ'],
  ['亮', 'りょう'],
  ['聡', 'さとし'],
  ['修', 'おさむ'],
  ['隆', 'たかし'],
  ['智子', 'ともこ'],
  ['久美子', 'くみこ'],
  ['真由美', 'まゆみ'],
  ['千尋', 'ちひろ'],
  ['舞', 'まい'],
  ['愛', 'あい'],
  ['彩', 'あや'],
  ['優子', 'ゆうこ'],
  ['和也', 'かずや'],
  ['健二', 'けんじ'],
  ['秀樹', 'ひでき'],
  ['光', 'ひかる'],
];

/** A small deterministic generator (mulberry32): the same seed gives the same members. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const BATCH = 1000;
/** Share of members who opted out of search, as some real members will. */
const OPTED_OUT = 0.05;

/** Inserts `count` active members with random names; answers their ids. */
export async function seedMembers(db: Db, count: number, seed = 20261122): Promise<string[]> {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const ids: string[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, offset) => {
      const [lastName, lastNameKana] = pick(FAMILY_NAMES);
      const [firstName, firstNameKana] = pick(GIVEN_NAMES);
      const name = { lastName, firstName, lastNameKana, firstNameKana };
      const email = `bench-${seed}-${start + offset}@example.jp`;
      return {
        email,
        username: email.split('@')[0]!,
        ...name,
        nameReading: nameReadingOf(name),
        status: 'active' as const,
        searchable: random() >= OPTED_OUT,
      };
    });
    const inserted = await db.insert(users).values(rows).returning({ id: users.id });
    ids.push(...inserted.map((row) => row.id));
  }
  return ids;
}
