import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSealer } from '../../server/domain/endingnote/sealing';
import { connections, endingNoteSections } from '../../server/db/schema';
import { ENDING_NOTE_SECTIONS } from '../../contract/rules/endingnote';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const noteUrl = (owner: TestMember) => `/v1/endingnote/${owner.id}`;
const sectionUrl = (owner: TestMember, section: string) => `${noteUrl(owner)}/sections/${section}`;

async function save(owner: TestMember, section: string, version: number, values: object) {
  return t.request({
    method: 'PUT',
    url: sectionUrl(owner, section),
    token: owner.token,
    body: { version, values },
  });
}

async function setVisibility(owner: TestMember, section: string, visibility: string) {
  const response = await t.request({
    method: 'PUT',
    url: `${sectionUrl(owner, section)}/visibility`,
    token: owner.token,
    body: { visibility },
  });
  expect(response.statusCode).toBe(200);
}

async function designate(owner: TestMember, readers: TestMember[]) {
  return t.request({
    method: 'PUT',
    url: `${noteUrl(owner)}/readers`,
    token: owner.token,
    body: { user_ids: readers.map((reader) => reader.id) },
  });
}

const sectionCodes = (body: { sections: { section: string }[] }) =>
  body.sections.map((section) => section.section);

describe('writing one own note', () => {
  it('answers every section, never saved and empty, to its owner', async () => {
    const owner = await createMember(t);
    const response = await t.request({ method: 'GET', url: noteUrl(owner), token: owner.token });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ userId: owner.id, viewer: 'owner', members: [] });
    expect(body.owner).toEqual({ userId: owner.id, lastName: '山田', firstName: '太郎' });
    expect(sectionCodes(body)).toEqual(ENDING_NOTE_SECTIONS.map((section) => section.code));
    expect(body.sections[0]).toMatchObject({
      section: 'self',
      visibility: 'private',
      version: 0,
      updatedAt: null,
      values: { full_name: '', birthdate: '', family: '' },
      completion: { filled: 0, total: 6 },
    });
  });

  it('saves a section, counts what is filled and moves its version on', async () => {
    const owner = await createMember(t);
    const first = await save(owner, 'funeral', 0, {
      style: 'family_only',
      invite: ['family', 'friends'],
      funeral_home_url: 'https://example.jp/sougi',
      wishes: '静かに\n送ってください',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      section: 'funeral',
      version: 1,
      updatedAt: '2026-11-22T00:00:00.000Z',
      values: { style: 'family_only', invite: ['family', 'friends'], religion: '', temple: '' },
      completion: { filled: 4, total: 8 },
    });
    const second = await save(owner, 'funeral', 1, { style: 'one_day' });
    expect(second.json()).toMatchObject({ version: 2, completion: { filled: 1, total: 8 } });
    const read = await t.request({
      method: 'GET',
      url: sectionUrl(owner, 'funeral'),
      token: owner.token,
    });
    expect(read.json()).toMatchObject({ version: 2, values: { style: 'one_day', invite: [] } });
  });

  it('refuses a save started from an older version and keeps what was stored', async () => {
    const owner = await createMember(t);
    expect((await save(owner, 'message', 0, { to_family: 'ありがとう' })).statusCode).toBe(200);
    // A second tab loaded version 0 before the first saved.
    const stale = await save(owner, 'message', 0, { to_family: '別のタブの文章' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_section', detail: expect.any(String) });
    const read = await t.request({
      method: 'GET',
      url: sectionUrl(owner, 'message'),
      token: owner.token,
    });
    expect(read.json()).toMatchObject({ version: 1, values: { to_family: 'ありがとう' } });
  });

  it('lets exactly one of two simultaneous saves of the same version through', async () => {
    const owner = await createMember(t);
    const answers = await Promise.all([
      save(owner, 'pets', 0, { names: 'ポチ' }),
      save(owner, 'pets', 0, { names: 'タマ' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });

  it('answers 422 with one error per bad field', async () => {
    const owner = await createMember(t);
    const response = await save(owner, 'medical', 0, {
      primary_doctor: 'あ'.repeat(201),
      care_place: 'moon',
      advance_directive: 'yes',
      organ_donation: 'no',
      colour: 'blue',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('validation_failed');
    expect(response.json().errors).toEqual(
      expect.arrayContaining([
        { field: 'values.primary_doctor', code: 'too_long' },
        { field: 'values.care_place', code: 'invalid_choice' },
        { field: 'values.advance_directive', code: 'invalid_type' },
        { field: 'values.colour', code: 'unknown_field' },
      ]),
    );
    expect(response.json().errors).toHaveLength(4);
    const links = await save(owner, 'pets', 0, { vet_url: 'javascript:alert(1)' });
    expect(links.json().errors).toEqual([{ field: 'values.vet_url', code: 'invalid_url' }]);
    const dates = await save(owner, 'message', 0, { written_on: '2026-02-30' });
    expect(dates.json().errors).toEqual([{ field: 'values.written_on', code: 'invalid_date' }]);
    const version = await t.request({
      method: 'PUT',
      url: sectionUrl(owner, 'message'),
      token: owner.token,
      body: { version: -1, values: {} },
    });
    expect(version.json().errors).toEqual([{ field: 'version', code: 'invalid_type' }]);
  });

  it('accepts only connections in a user-select and names them in the note', async () => {
    const owner = await createMember(t);
    const friend = await createMember(t, { lastName: '佐藤', firstName: '花子' });
    const stranger = await createMember(t);
    await connectMembers(t, owner, friend);
    const refused = await save(owner, 'pets', 0, { caretaker: [friend.id, stranger.id] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([{ field: 'values.caretaker.1', code: 'not_connected' }]);
    expect((await save(owner, 'pets', 0, { caretaker: [friend.id] })).statusCode).toBe(200);
    const note = await t.request({ method: 'GET', url: noteUrl(owner), token: owner.token });
    expect(note.json().members).toEqual([
      { userId: friend.id, lastName: '佐藤', firstName: '花子' },
    ]);
  });

  it('answers 404 for a section that does not exist and for an impossible note id', async () => {
    const owner = await createMember(t);
    const section = await t.request({
      method: 'GET',
      url: sectionUrl(owner, 'hobbies'),
      token: owner.token,
    });
    expect(section.statusCode).toBe(404);
    const id = await t.request({ method: 'GET', url: '/v1/endingnote/42', token: owner.token });
    expect(id.statusCode).toBe(404);
  });
});

describe('asset and account fields at rest', () => {
  it('are sealed in the row and open again for the owner', async () => {
    const owner = await createMember(t);
    const account = '三井住友銀行 渋谷支店 普通 1234567';
    const response = await save(owner, 'assets', 0, {
      held: ['deposits'],
      bank_accounts: account,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().values.bank_accounts).toBe(account);
    const [row] = await t.ctx.database.db
      .select()
      .from(endingNoteSections)
      .where(eq(endingNoteSections.ownerUserId, owner.id));
    expect(row!.content).toEqual({});
    expect(Object.keys(row!.sealed).sort()).toEqual([
      'bank_accounts',
      'debts',
      'held',
      'insurance',
      'pensions',
      'real_estate',
      'securities',
    ]);
    for (const sealed of Object.values(row!.sealed)) expect(sealed).toMatch(/^k1:[\w-]{40,}$/);
    expect(JSON.stringify(row)).not.toContain('1234567');
    expect(JSON.stringify(row)).not.toContain('deposits');
    // Each value has its own IV: the same empty value seals differently.
    expect(row!.sealed.debts).not.toBe(row!.sealed.insurance);
  });

  it('keep the rest of the note readable as plain JSON', async () => {
    const owner = await createMember(t);
    await save(owner, 'digital', 0, {
      online_accounts: 'gmail: taro@example.jp',
      after_death: 'delete',
    });
    const [row] = await t.ctx.database.db
      .select()
      .from(endingNoteSections)
      .where(eq(endingNoteSections.ownerUserId, owner.id));
    expect(row!.content).toEqual({ after_death: 'delete' });
    expect(JSON.stringify(row!.sealed)).not.toContain('gmail');
  });

  it('do not open when moved to another member, field or key', () => {
    const sealer = createSealer(t.config.dataEncryptionKey);
    const sealed = sealer.seal('"1234567"', 'endingnote/a/assets/bank_accounts');
    expect(sealer.open(sealed, 'endingnote/a/assets/bank_accounts')).toBe('"1234567"');
    expect(() => sealer.open(sealed, 'endingnote/b/assets/bank_accounts')).toThrow();
    const otherKey = createSealer(Buffer.alloc(32, 7).toString('base64'));
    expect(() => otherKey.open(sealed, 'endingnote/a/assets/bank_accounts')).toThrow();
    expect(() =>
      sealer.open(sealed.replace(/^k1:/, 'k9:'), 'endingnote/a/assets/bank_accounts'),
    ).toThrow(/unknown key version/);
  });
});

describe('who reads a note', () => {
  let owner: TestMember;
  let reader: TestMember;
  let otherConnection: TestMember;
  let stranger: TestMember;

  beforeAll(async () => {
    owner = await createMember(t);
    reader = await createMember(t);
    otherConnection = await createMember(t);
    stranger = await createMember(t);
    await connectMembers(t, owner, reader, 'family');
    await connectMembers(t, owner, otherConnection);
    expect((await designate(owner, [reader])).statusCode).toBe(200);
    await save(owner, 'self', 0, { full_name: '山田太郎' });
    await save(owner, 'assets', 0, { bank_accounts: 'ゆうちょ 12345' });
    await save(owner, 'message', 0, { to_family: 'まだ秘密' });
    await setVisibility(owner, 'self', 'readers_now');
    await setVisibility(owner, 'assets', 'readers_after_death');
  });

  const readAs = (member: TestMember | undefined, url: string) =>
    t.request({ method: 'GET', url, token: member?.token });

  it('shows the owner every section with its visibility, untouched by visibility changes', async () => {
    const body = (await readAs(owner, noteUrl(owner))).json();
    expect(sectionCodes(body)).toHaveLength(ENDING_NOTE_SECTIONS.length);
    expect(body.sections.find((s: { section: string }) => s.section === 'self')).toMatchObject({
      visibility: 'readers_now',
      version: 1,
    });
    expect(body.sections.find((s: { section: string }) => s.section === 'medical')).toMatchObject({
      visibility: 'private',
      version: 0,
    });
  });

  it('shows a designated reader only the sections open now, before the death is confirmed', async () => {
    const note = await readAs(reader, noteUrl(owner));
    expect(note.statusCode).toBe(200);
    expect(note.json()).toMatchObject({ viewer: 'reader' });
    expect(sectionCodes(note.json())).toEqual(['self']);
    expect((await readAs(reader, sectionUrl(owner, 'self'))).statusCode).toBe(200);
    expect((await readAs(reader, sectionUrl(owner, 'assets'))).statusCode).toBe(404);
    expect((await readAs(reader, sectionUrl(owner, 'message'))).statusCode).toBe(404);
  });

  it('never lets a reader change the note, its readers or export it', async () => {
    expect((await save({ ...owner, token: reader.token }, 'self', 1, {})).statusCode).toBe(404);
    expect((await readAs(reader, `${noteUrl(owner)}/readers`)).statusCode).toBe(404);
    expect((await readAs(reader, `${noteUrl(owner)}/export`)).statusCode).toBe(404);
  });

  it('hides the note from a connection who is not designated, a stranger and the anonymous', async () => {
    for (const member of [otherConnection, stranger]) {
      expect((await readAs(member, noteUrl(owner))).statusCode).toBe(404);
      expect((await readAs(member, sectionUrl(owner, 'self'))).statusCode).toBe(404);
    }
    const anonymous = await readAs(undefined, noteUrl(owner));
    expect(anonymous.statusCode).toBe(401);
  });

  it('opens the after-death sections once the death is confirmed, never the private ones', async () => {
    // What death detection writes once a death is confirmed and its grace period has passed.
    await t.ctx.database.db.execute(
      sql`UPDATE users SET death_confirmed_at = ${t.clock.now().toISOString()} WHERE id = ${owner.id}`,
    );
    const note = await readAs(reader, noteUrl(owner));
    expect(sectionCodes(note.json())).toEqual(['self', 'assets']);
    const assets = await readAs(reader, sectionUrl(owner, 'assets'));
    expect(assets.json().values.bank_accounts).toBe('ゆうちょ 12345');
    expect((await readAs(reader, sectionUrl(owner, 'message'))).statusCode).toBe(404);
    expect((await readAs(otherConnection, noteUrl(owner))).statusCode).toBe(404);
  });

  it('closes the note to a reader whose connection has ended', async () => {
    await t.ctx.database.db
      .delete(connections)
      .where(sql`${connections.userId} IN (${owner.id}, ${reader.id})`);
    expect((await readAs(reader, noteUrl(owner))).statusCode).toBe(404);
    const readers = await readAs(owner, `${noteUrl(owner)}/readers`);
    expect(readers.json().readers).toEqual([
      { userId: reader.id, lastName: '山田', firstName: '太郎', connected: false },
    ]);
  });
});

describe('designated readers', () => {
  it('must be connections of the owner', async () => {
    const owner = await createMember(t);
    const friend = await createMember(t, { lastName: '鈴木', firstName: '一郎' });
    const stranger = await createMember(t);
    await connectMembers(t, owner, friend);
    const refused = await designate(owner, [friend, stranger]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([{ field: 'user_ids.1', code: 'not_connected' }]);
    const accepted = await designate(owner, [friend]);
    expect(accepted.json().readers).toEqual([
      { userId: friend.id, lastName: '鈴木', firstName: '一郎', connected: true },
    ]);
    const cleared = await designate(owner, []);
    expect(cleared.json().readers).toEqual([]);
  });
});

describe('exporting the note', () => {
  let owner: TestMember;
  beforeAll(async () => {
    owner = await createMember(t);
    const friend = await createMember(t, { lastName: '佐藤', firstName: '花子' });
    await connectMembers(t, owner, friend);
    await save(owner, 'self', 0, { full_name: '<b>山田</b> 太郎', birthdate: '1950-04-03' });
    await save(owner, 'medical', 0, {
      organ_donation: 'no',
      advance_directive: true,
      decision_maker: [friend.id],
    });
    await save(owner, 'assets', 0, {
      held: ['deposits', 'pension'],
      pensions: '基礎年金番号 1234',
    });
  });

  it('gives the owner the whole note as a JSON file', async () => {
    const response = await t.request({
      method: 'GET',
      url: `${noteUrl(owner)}/export?format=json`,
      token: owner.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="endingnote-20261122.json"',
    );
    const file = JSON.parse(response.body);
    expect(file.exportedAt).toBe('2026-11-22T00:00:00.000Z');
    expect(file.sections).toHaveLength(ENDING_NOTE_SECTIONS.length);
    expect(file.sections[3].values.pensions).toBe('基礎年金番号 1234');
  });

  it('gives the owner a printable Japanese HTML file with every value escaped', async () => {
    const response = await t.request({
      method: 'GET',
      url: `${noteUrl(owner)}/export?format=html`,
      token: owner.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="endingnote-20261122.html"',
    );
    const html = response.body;
    expect(html).toContain('<title>山田 太郎 さんのエンディングノート</title>');
    expect(html).toContain('2026年11月22日 9:00 に書き出しました');
    expect(html).toContain('<h2>医療・介護</h2>');
    expect(html).toContain('<dt>臓器提供</dt><dd>提供しない</dd>');
    expect(html).toContain('<dd>はい</dd>');
    expect(html).toContain('<dt>判断を任せたい人</dt><dd>佐藤 花子</dd>');
    expect(html).toContain('<dt>生年月日</dt><dd>1950年4月3日</dd>');
    expect(html).toContain('<dd>預貯金、年金</dd>');
    expect(html).toContain('&lt;b&gt;山田&lt;/b&gt; 太郎');
    expect(html).not.toContain('<b>山田');
  });

  it('refuses an unknown format', async () => {
    const response = await t.request({
      method: 'GET',
      url: `${noteUrl(owner)}/export?format=pdf`,
      token: owner.token,
    });
    expect(response.statusCode).toBe(422);
  });
});
