import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { integrationLinkProof, setAdministrators, tokenOf } from './deathDetectionSupport';
import { jpegPhoto, tryUpload, upload } from './memorialSupport';

/**
 * The calls the app's death-administration screens added to the death-detection API:
 * acceptance by an administrator, what the member's settings show of each administrator,
 * the administrator's report with a document, the case's reporter, and the member's
 * integration links. Authorisation is checked for every one.
 */

const FPOS_SECRET = 'integration-secret-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ FPOS_CLIENTS: `funeral-co:${FPOS_SECRET}` });
});
afterAll(async () => {
  await t.close();
});

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  member: TestMember,
  url: string,
  body?: unknown,
) {
  return t.request({ method, url, token: await tokenOf(t, member), body });
}

async function household() {
  const member = await createMember(t, { lastName: '山田', firstName: '花子' });
  const son = await createMember(t, { lastName: '山田', firstName: '一郎' });
  const friend = await createMember(t, { lastName: '鈴木', firstName: '友子' });
  const stranger = await createMember(t, { lastName: '田中', firstName: '三郎' });
  await connectMembers(t, member, son, 'family');
  await connectMembers(t, member, friend, 'friend');
  return { member, son, friend, stranger };
}

describe('naming and accepting administrators', () => {
  it('shows each administrator with the relationship and whether they accepted', async () => {
    const { member, son, friend } = await household();
    await setAdministrators(t, member, [son, friend]);
    const before = (await call('GET', member, '/v1/fpos/death_settings')).json();
    expect(before.gracePeriodDays).toBe(7);
    expect(before.administrators).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userId: son.id, relationship: 'family', acceptedAt: null }),
        expect.objectContaining({ userId: friend.id, relationship: 'friend', acceptedAt: null }),
      ]),
    );

    const accepted = await call('POST', son, `/v1/fpos/administered_users/${member.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().acceptedAt).toBe(t.clock.now().toISOString());

    const after = (await call('GET', member, '/v1/fpos/death_settings')).json();
    const sonRow = after.administrators.find((row: { userId: string }) => row.userId === son.id);
    expect(sonRow.acceptedAt).toBe(accepted.json().acceptedAt);
    const administered = (await call('GET', son, '/v1/fpos/administered_users')).json();
    expect(administered.items).toEqual([
      expect.objectContaining({ userId: member.id, state: 'alive', acceptedAt: sonRow.acceptedAt }),
    ]);
  });

  it('keeps an acceptance when the settings are saved again with the same administrator', async () => {
    const { member, son, friend } = await household();
    await setAdministrators(t, member, [son]);
    await call('POST', son, `/v1/fpos/administered_users/${member.id}/accept`);
    await setAdministrators(t, member, [son, friend], 'two');
    const settings = (await call('GET', member, '/v1/fpos/death_settings')).json();
    const accepted = settings.administrators.map((row: { acceptedAt: string | null }) =>
      row.acceptedAt === null ? 'waiting' : 'accepted',
    );
    expect(accepted.sort()).toEqual(['accepted', 'waiting']);
  });

  it('tells only newly named administrators, by notification and mail', async () => {
    const { member, son, friend } = await household();
    await setAdministrators(t, member, [son]);
    const mailsBefore = t.mailbox.length;
    await setAdministrators(t, member, [son, friend]);
    // The member hears of the change too (with a link to report it); of the administrators,
    // only the newly named one is mailed.
    const mails = t.mailbox.slice(mailsBefore).filter((mail) => mail.to !== member.email);
    expect(mails.map((mail) => mail.to)).toEqual([friend.email]);
    expect(mails[0]!.subject).toContain('山田 花子');
    expect(mails[0]!.link).toBe('http://localhost:3000/death-administration');
    const kinds = async (who: TestMember) =>
      (await call('GET', who, '/v1/notification/user_notifications'))
        .json()
        .items.map((item: { kind: string }) => item.kind);
    expect(await kinds(friend)).toEqual(['death_administrator_named']);
    expect(await kinds(son)).toEqual(['death_administrator_named']);
  });

  it('answers 404 to anyone the member did not name, and to a malformed id 422', async () => {
    const { member, son, friend, stranger } = await household();
    await setAdministrators(t, member, [son]);
    for (const outsider of [friend, stranger, member]) {
      const refused = await call(
        'POST',
        outsider,
        `/v1/fpos/administered_users/${member.id}/accept`,
      );
      expect(refused.statusCode).toBe(404);
    }
    const malformed = await call('POST', son, '/v1/fpos/administered_users/nope/accept');
    expect(malformed.statusCode).toBe(422);
    const anonymous = await t.request({
      method: 'POST',
      url: `/v1/fpos/administered_users/${member.id}/accept`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('an administrator reports with a document', () => {
  it('keeps the reason and the checked document, and names the reporter in the case', async () => {
    const { member, son } = await household();
    await setAdministrators(t, member, [son]);
    const document = await upload(t, await jpegPhoto(400, 300), { token: await tokenOf(t, son) });
    const report = await call('POST', son, '/v1/fpos/report_death_suspected', {
      user_id: member.id,
      note: '入院先から連絡がありました',
      document_image_name: document,
    });
    expect(report.statusCode, report.body).toBe(201);
    expect(report.json().signals).toEqual([
      expect.objectContaining({
        source: 'administrator',
        reporterUserId: son.id,
        reporterLastName: '山田',
        reporterFirstName: '一郎',
        note: '入院先から連絡がありました',
        documentImageName: document,
      }),
    ]);
    const log = (await call('GET', son, `/v1/fpos/death_audit_log/${member.id}`)).json();
    expect(log.items[log.items.length - 1]).toMatchObject({
      action: 'suspicion_raised',
      actorUserId: son.id,
      actorLastName: '山田',
      actorFirstName: '一郎',
    });
  });

  it('keeps the report, its document and its outcome once the member cancels, and marks every notice of it cancelled', async () => {
    const { member, son } = await household();
    await setAdministrators(t, member, [son]);
    const document = await upload(t, await jpegPhoto(400, 300), { token: await tokenOf(t, son) });
    const report = await call('POST', son, '/v1/fpos/report_death_suspected', {
      user_id: member.id,
      note: '電話がつながりません',
      document_image_name: document,
    });
    expect(report.statusCode, report.body).toBe(201);
    const cancel = await call('POST', member, '/v1/fpos/cancel_death_suspected_at', {
      death_suspected_user_id: member.id,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);

    const seen = await call('GET', son, `/v1/fpos/death_case/${member.id}`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toMatchObject({
      state: 'alive',
      signals: [],
      lastCancelled: {
        suspectedAt: report.json().suspectedAt,
        cancelledAt: expect.any(String),
        cancelledBy: 'cancel',
        signals: [
          expect.objectContaining({
            reporterUserId: son.id,
            note: '電話がつながりません',
            documentImageName: document,
          }),
        ],
      },
    });

    // The suspicion notices, the member's own and the administrator's, now say cancelled.
    for (const reader of [member, son]) {
      const list = await call('GET', reader, '/v1/notification/user_notifications');
      const items = list.json().items as {
        kind: string;
        payload: Record<string, unknown>;
        readAt: string | null;
      }[];
      const suspected = items.filter((item) => item.kind === 'death_suspected');
      expect(suspected).toHaveLength(1);
      expect(suspected[0]!.payload).toMatchObject({
        userId: member.id,
        cancelledAt: expect.any(String),
      });
      expect(suspected[0]!.readAt).not.toBeNull();
    }
  });

  it('refuses a document that is not an image, and tells a non-administrator nothing', async () => {
    const { member, son, friend } = await household();
    await setAdministrators(t, member, [son]);
    const { imageName: text, put } = await tryUpload(t, Buffer.from('not an image at all'), {
      token: await tokenOf(t, son),
      contentType: 'image/jpeg',
    });
    expect(put.statusCode).toBe(415);
    const refused = await call('POST', son, '/v1/fpos/report_death_suspected', {
      user_id: member.id,
      document_image_name: text,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([
      { field: 'document_image_name', code: 'upload_missing' },
    ]);
    expect((await call('GET', son, `/v1/fpos/death_case/${member.id}`)).json().state).toBe('alive');

    const outsider = await call('POST', friend, '/v1/fpos/report_death_suspected', {
      user_id: member.id,
      document_image_name: text,
    });
    expect(outsider.statusCode).toBe(404);
  });
});

describe('integration links', () => {
  it('lists the member’s own links only, and a withdrawn link disappears', async () => {
    const { member, friend } = await household();
    const linked = await t.request({
      method: 'POST',
      url: '/v1/fpos/verify_my_auth_access_token',
      body: {
        client_id: 'funeral-co',
        fpos_user_id: `F-${member.id.slice(0, 8)}`,
        access_token: await tokenOf(t, member),
        ...integrationLinkProof(t, {
          clientId: 'funeral-co',
          fposUserId: `F-${member.id.slice(0, 8)}`,
          secret: FPOS_SECRET,
        }),
      },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const mine = (await call('GET', member, '/v1/fpos/integration_links')).json();
    expect(mine.items).toEqual([
      {
        clientId: 'funeral-co',
        fposUserId: `F-${member.id.slice(0, 8)}`,
        createdAt: t.clock.now().toISOString(),
      },
    ]);
    expect((await call('GET', friend, '/v1/fpos/integration_links')).json().items).toEqual([]);
    expect((await t.request({ method: 'GET', url: '/v1/fpos/integration_links' })).statusCode).toBe(
      401,
    );

    const unlinked = await call('DELETE', member, '/v1/fpos/integration_links/funeral-co');
    expect(unlinked.statusCode).toBe(204);
    expect((await call('GET', member, '/v1/fpos/integration_links')).json().items).toEqual([]);
  });
});
