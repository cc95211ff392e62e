/**
 * The registration chart's generated paths replayed in Chromium against the real server: the
 * standard, pet and inflow variants to the mail sent (the server's outbox holds the link), the
 * URL that asks to be checked, the form refused by the shared rules and by the server, and the
 * activation link that works, that is incomplete and that the server refuses.
 *
 * The server's answers are its own, with two exceptions that no real request provokes: a 422
 * naming a field the form does not have, and a server that is down. Those two are answered at
 * the network (Playwright's route), the app and its chart untouched.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, workerServer } from './support/fixtures';
import type { Page, Request } from '@playwright/test';
import { assign } from 'xstate';
import {
  registrationMachine,
  type RegistrationContext,
  type RegistrationEvent,
  type RegistrationField,
} from '../src/machines/registration';
import {
  registrationEvents,
  registrationFailures,
  registrationStarts,
  unfilledFields,
  validRegistrationForm,
} from '../test/model/flowEvents';
import {
  chosenPaths,
  replayInBrowser,
  type BrowserExecutor,
  type BrowserView,
  type FlowPath,
} from './support/flowReplay';
import { sharedInvitation, type SharedInvitation } from './support/invitations';
import { mailedActivationLink, sessionUser } from './support/members';
import { VIEWPORTS } from './support/screens';
import { startLocalOidcProvider, type LocalOidcProvider } from '../test/support/localOidcProvider';

type EventType =
  | RegistrationEvent['type']
  | 'xstate.done.actor.register'
  | 'xstate.error.actor.register'
  | 'xstate.done.actor.activate'
  | 'xstate.error.actor.activate';

/** What the path being replayed works with on the real server. */
interface Replay {
  /** The address the form is filled with: one of its own for every test. */
  email: string;
  /** The pet page whose admin link this browser opened (pet-mode starts). */
  invitation?: SharedInvitation;
  /** The registration requests the browser sent, in order. */
  sent: Request[];
  /** The OpenID Connect provider the server knows as LINE (external-provider starts). */
  provider?: LocalOidcProvider;
  /** The activation link mailed for a registration made before the path (ACTIVATE). */
  activation?: URL;
  /** Whether that link was spent before the path opens it (the server then refuses it). */
  activationSpent?: boolean;
}
let replay: Replay;

/** The three registration endpoints: standard, inflow and external provider. */
const REGISTER_PATHS = /^\/v1\/user(\/create_inflow_user|\/create_user_with_external_provider)?$/;
const REGISTER_ROUTE = (url: URL) => REGISTER_PATHS.test(url.pathname);

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const alerts = (page: Page) => page.locator('#content').getByRole('alert');
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const pressIfShown = async (page: Page, name: string) => {
  if (await button(page, name).isVisible()) await button(page, name).click();
};

const LABELS: Record<Exclude<RegistrationField, 'address' | 'sexCode' | 'userIconUrl'>, string> = {
  username: 'ニックネーム',
  email: 'メールアドレス',
  password: 'パスワード',
  lastName: '姓',
  firstName: '名',
  lastNameKana: 'せい（ひらがな）',
  firstNameKana: 'めい（ひらがな）',
  birthdate: '生年月日',
};
const SEXES: Record<string, string> = {
  '1': '男性',
  '2': '女性',
  '3': 'その他',
  '9': '回答しない',
};

/** The model's example address stands for the test's own. */
const realValue = (field: RegistrationField, value: string) =>
  field === 'email' && value === validRegistrationForm.email ? replay.email : value;

/** The model's registration URLs, with its made-up pages and partners made real. */
async function openRegistration(page: Page, query: string, pendingPetPageId: string | null) {
  const search = new URLSearchParams(query);
  if (search.has('provider')) {
    // A first sign-in with LINE leads to the registration with the server's own assertion;
    // the model's other parts of the URL (otherAdmin) are kept as it gives them.
    replay.provider!.signInNext({
      sub: `line-${randomUUID()}`,
      email: replay.email,
      name: search.get('name')!,
    });
    await page.goto('/login');
    // The screen takes the assertion out of the address at once: it is read from the redirect.
    const callback = page.waitForResponse((response) =>
      response.url().includes('/api/auth/callback/line'),
    );
    await page.getByRole('button', { name: 'LINEでログイン' }).click();
    const given = new URL((await callback).headers().location!).searchParams;
    await expect(page).toHaveURL(/\/register-top\?register=true$/);
    for (const [key, value] of search)
      if (!['provider', 'providerUserId', 'assertion', 'email', 'name'].includes(key))
        given.set(key, value);
    await page.goto(`/register-top?${given}`);
    return;
  }
  if (pendingPetPageId !== null) {
    // The pet page's admin link, opened signed out, sets the pet-admin setting here.
    await page.goto(replay.invitation!.link);
    await page.getByRole('button', { name: '新規登録する' }).click();
    await expect(page).toHaveURL(/\/register-top\?pet=true$/);
  }
  await page.goto(`/register-top?${query}`);
}

const executors = {
  START: async (page, event) => {
    const { query, pendingPetPageId } = event as Extract<RegistrationEvent, { type: 'START' }>;
    await openRegistration(page, query, pendingPetPageId);
  },
  ACTIVATE: async (page, event) => {
    const { link } = event as Extract<RegistrationEvent, { type: 'ACTIVATE' }>;
    // A complete link is the one mailed for a registration made before (the path's outcome
    // then tells whether it is spent already); an incomplete one is the model's own.
    if (link.token !== '' && replay.activation) {
      await page.goto(replay.activation.href);
      // A link still unspent asks for the password the registration was made with.
      if (!replay.activationSpent) {
        await page.getByLabel('パスワード', { exact: true }).fill(validRegistrationForm.password);
        await button(page, '登録を完了する').click();
      }
    } else
      await page.goto(`/activate?${new URLSearchParams({ token: link.token, email: link.email })}`);
  },
  EDIT: async (page, event) => {
    const { field, value } = event as Extract<RegistrationEvent, { type: 'EDIT' }>;
    if (field === 'address') await page.getByLabel('お住まいの都道府県').selectOption(value);
    else if (field === 'sexCode') await page.getByRole('radio', { name: SEXES[value]! }).check();
    else if (field === 'userIconUrl') throw new Error('the model fills no picture');
    else await page.getByLabel(LABELS[field], { exact: true }).fill(realValue(field, value));
  },
  // The form's or the confirm step's button; a screen without one ignores the event.
  SUBMIT: async (page) => {
    if (await button(page, '入力内容を確認する').isVisible())
      await button(page, '入力内容を確認する').click();
    else await pressIfShown(page, '登録する');
  },
  BACK: async (page) => pressIfShown(page, '入力画面に戻る'),
  // The calls' outcomes are the server's answers (or the network's, set up before the path).
  'xstate.done.actor.register': async () => undefined,
  'xstate.error.actor.register': async () => undefined,
  'xstate.done.actor.activate': async () => undefined,
  'xstate.error.actor.activate': async () => undefined,
} satisfies Record<EventType, BrowserExecutor>;

const lastRegisterOutcome = (path: FlowStepLike[]) =>
  path.findLast(
    (step) => step.event.type.startsWith('xstate.') && step.event.type.endsWith('.register'),
  );
type FlowStepLike = FlowPath['steps'][number];

/** The lead of the form: a LINE, pet-admin or other-admin registration has its own, else the plain one. */
const leadOf = (start: FlowStepLike['event']) => {
  const query = new URLSearchParams((start as unknown as { query: string }).query);
  if (query.has('provider')) return 'LINE の情報を使って登録します。';
  if (query.get('pet') === 'true')
    return 'ペットのメモリアルページを管理するために、まずあなたのアカウントを作成します。';
  if (query.get('otherAdmin') === 'true')
    return '大切な方のメモリアルページを管理するために、まずあなたのアカウントを作成します。';
  return '偲ぶをはじめるために、あなたについて教えてください。';
};

const views: Record<string, BrowserView> = {
  idle: async () => undefined,
  input: async (page, step, path) => {
    await expect(heading(page)).toHaveText('新規登録');
    await expect(page.getByText(leadOf(path[0]!.event))).toBeVisible();
    const refused =
      (step?.event.type === 'SUBMIT' && path.at(-2)?.states.includes('input')) ||
      step?.event.type === 'xstate.error.actor.register';
    if (refused) await expect(alerts(page).first()).toContainText('入力内容を確認してください。');
  },
  confirm: async (page) => {
    await expect(heading(page)).toHaveText('入力内容の確認');
    await expect(page.getByText(replay.email)).toBeVisible();
  },
  // The request is on its way: the browser sent it (its answer may already be in).
  submitting: async (page, _step, path) => {
    const submits = path.filter((done) => done.states.includes('submitting')).length;
    await expect.poll(() => replay.sent.length).toBeGreaterThanOrEqual(submits);
  },
  failed: async (page) => {
    await expect(heading(page)).toHaveText('入力内容の確認');
    await expect(alerts(page).first()).toHaveText('ユーザー登録に失敗しました。');
  },
  mailSent: async (page, _step, path) => {
    await expect(heading(page)).toHaveText('メールをお送りしました');
    await expect(page.getByText(`${replay.email} 宛に`)).toBeVisible();
    expect(lastRegisterOutcome(path)?.event.type).toBe('xstate.done.actor.register');
    // The server recorded the registration: it mailed the activation link to the address.
    await mailedActivationLink(replay.email);
  },
  invalidUrl: async (page) => {
    await expect(heading(page)).toHaveText('新規登録');
    await expect(alerts(page)).toHaveText('URLをご確認ください。');
    await expect(page.getByLabel('ニックネーム')).toHaveCount(0);
  },
  activating: async (page) => {
    await expect(page).toHaveURL(/\/(activate\?|dashboard$)/);
  },
  activated: async (page) => {
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await sessionUser(page)).toMatchObject({ username: 'hanako' });
  },
  activationFailed: async (page) => {
    await expect(heading(page)).toHaveText('登録の完了');
    await expect(alerts(page)).toHaveText('ユーザーアクティベーションに失敗しました。');
    expect(await sessionUser(page)).toBeNull();
  },
};

/**
 * The shared rules' verdict on the model's forms, for generating the paths only (the rules
 * module reads a JSON file Playwright's loader cannot import; the browser runs the real one):
 * a form the model completed is valid, an untouched one or one with its email spoiled is not.
 */
const modelRules = {
  guards: {
    formValid: ({ context }: { context: RegistrationContext }) =>
      unfilledFields(context.form, context.setup!.variant).length === 0 &&
      context.form.email === validRegistrationForm.email,
  },
  actions: {
    showFieldErrors: assign<
      RegistrationContext,
      RegistrationEvent,
      unknown,
      RegistrationEvent,
      never
    >({
      errors: { username: 'required' },
    }),
  },
};

const all = chosenPaths(
  registrationMachine.provide(modelRules),
  { events: registrationEvents },
  () => true,
);
const startOf = (path: FlowPath) =>
  (Object.keys(registrationStarts) as (keyof typeof registrationStarts)[]).find(
    (name) => registrationStarts[name].query === (path.steps[0]!.event as { query?: string }).query,
  );
const endsIn = (path: FlowPath, state: string) => path.steps.at(-1)!.states.includes(state);
const failsWith = (path: FlowPath, failure: keyof typeof registrationFailures) =>
  path.steps.some(
    (step) =>
      step.event.type === 'xstate.error.actor.register' &&
      (step.event as { error?: unknown }).error === registrationFailures[failure],
  );
const pick = (label: string, choose: (path: FlowPath) => boolean) => {
  const path = all.find(choose);
  if (!path) throw new Error(`no generated path: ${label}`);
  return { label, path };
};

/** The replayed paths: one to every final state, every error branch, each variant to the mail. */
const chosen = [
  pick('standard, to the mail', (p) => startOf(p) === 'standard' && endsIn(p, 'mailSent')),
  pick('standard, empty form refused', (p) => startOf(p) === 'standard' && p.steps.length === 3),
  pick(
    'standard, server refuses a field',
    (p) =>
      startOf(p) === 'standard' &&
      failsWith(p, 'rejected') &&
      endsIn(p, 'input') &&
      p.steps.at(-1)!.event.type === 'SUBMIT',
  ),
  pick(
    'standard, server refuses an unknown field',
    (p) => startOf(p) === 'standard' && failsWith(p, 'unknownField'),
  ),
  pick('standard, server down', (p) => startOf(p) === 'standard' && failsWith(p, 'serverDown')),
  pick('pet, another page, to the mail', (p) => startOf(p) === 'otherPet' && endsIn(p, 'mailSent')),
  pick('inflow pet, to the mail', (p) => startOf(p) === 'inflowPet' && endsIn(p, 'mailSent')),
  pick(
    'external provider, other admin, to the mail',
    (p) => startOf(p) === 'external' && endsIn(p, 'mailSent'),
  ),
  pick('inflow without its id', (p) => startOf(p) === 'inflowWithoutId'),
  pick('activation', (p) => endsIn(p, 'activated')),
  pick(
    'activation link incomplete',
    (p) =>
      p.steps.length === 2 &&
      endsIn(p, 'activationFailed') &&
      !p.steps[1]!.event.type.startsWith('xstate.'),
  ),
  pick('activation refused', (p) =>
    p.steps.some((step) => step.event.type === 'xstate.error.actor.activate'),
  ),
];

test('the chosen paths reach every final state and every error branch', () => {
  const finals = new Set(chosen.flatMap(({ path }) => path.steps.flatMap((step) => step.states)));
  for (const state of ['mailSent', 'activated', 'activationFailed', 'invalidUrl', 'failed'])
    expect(finals).toContain(state);
  for (const failure of Object.keys(registrationFailures) as (keyof typeof registrationFailures)[])
    expect(chosen.some(({ path }) => failsWith(path, failure))).toBe(true);
});

test.afterEach(async () => {
  await replay?.provider?.close();
});

for (const { label, path } of chosen) {
  test(`registration, ${label}: ${path.title}`, async ({ browser, playwright }) => {
    const start = startOf(path);
    replay = { email: `reg-${randomUUID()}@example.jp`, sent: [] };
    if (start === 'inflowPet' || start === 'otherPet') {
      test.slow();
      const api = await playwright.request.newContext({ baseURL: workerServer().baseURL });
      replay.invitation = await sharedInvitation(api, { setAdmin: true, pet: true });
      await api.dispose();
    }
    if (start === 'external') {
      test.slow();
      const { line, baseURL } = workerServer();
      replay.provider = await startLocalOidcProvider({
        port: line.port,
        clientId: line.clientId,
        clientSecret: line.clientSecret,
        redirectUris: [`${baseURL}/api/auth/callback/line`],
      });
    }
    const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
    if (path.steps[0]!.event.type === 'ACTIVATE') {
      // A registration made before, whose mailed link the path opens.
      const registered = await context.request.post('/v1/user', {
        data: {
          username: 'hanako',
          email: replay.email,
          password: validRegistrationForm.password,
          first_name: validRegistrationForm.firstName,
          last_name: validRegistrationForm.lastName,
          first_name_kana: validRegistrationForm.firstNameKana,
          last_name_kana: validRegistrationForm.lastNameKana,
          address: validRegistrationForm.address,
          birthdate: validRegistrationForm.birthdate,
          sex_code: Number(validRegistrationForm.sexCode),
        },
      });
      expect(registered.status(), await registered.text()).toBe(202);
      replay.activation = await mailedActivationLink(replay.email);
      if (path.steps.some((step) => step.event.type === 'xstate.error.actor.activate')) {
        // The server refuses a link already spent.
        const spent = await context.request.post(
          `/v1/user/confirm/${encodeURIComponent(replay.activation.searchParams.get('token')!)}/${encodeURIComponent(replay.email)}`,
          { data: { password: validRegistrationForm.password } },
        );
        expect(spent.status()).toBe(200);
        replay.activationSpent = true;
      }
    }
    const page = await context.newPage();
    page.on('request', (request) => {
      if (request.method() === 'POST' && REGISTER_PATHS.test(new URL(request.url()).pathname))
        replay.sent.push(request);
    });
    // The two answers no real request provokes, given at the network to the first call.
    const failure = failsWith(path, 'unknownField')
      ? registrationFailures.unknownField
      : failsWith(path, 'serverDown')
        ? registrationFailures.serverDown
        : undefined;
    if (failure) {
      await page.route(
        REGISTER_ROUTE,
        (route) =>
          route.fulfill({
            status: failure.response.status,
            json: failure.response.data,
          }),
        { times: 1 },
      );
    }
    if (failsWith(path, 'rejected')) {
      // A picture name the upload signer never hands out: the real server refuses the field.
      await page.route(
        REGISTER_ROUTE,
        async (route) =>
          route.continue({
            postData: { ...route.request().postDataJSON(), user_icon_url: '../not-an-upload' },
          }),
        { times: 1 },
      );
    }

    await replayInBrowser(page, path, executors, views);

    const request = replay.sent.at(-1)?.postDataJSON() as Record<string, unknown> | undefined;
    if (start === 'otherPet') {
      // The page the URL names is sent; the link held here is not taken by this registration.
      expect(replay.sent.at(-1)?.url()).toMatch(/\/v1\/user$/);
      expect(request).toMatchObject({ admin_pet_id: 'p-9' });
      expect(
        JSON.parse((await page.evaluate(() => localStorage.getItem('persist:shinobu'))) ?? '{}'),
      ).toMatchObject({ memorialAdmin: { completed: false } });
    }
    if (start === 'inflowPet') {
      // Inflow, with the partner's id instead of a pet page (spec: registration payload).
      expect(replay.sent.at(-1)?.url()).toMatch(/\/v1\/user\/create_inflow_user$/);
      expect(request).toMatchObject({ inflow_id: 'partner-1', email: replay.email });
      expect(request).not.toHaveProperty('admin_pet_id');
      // So the pet page's link held here is not used up by it.
      expect(
        JSON.parse((await page.evaluate(() => localStorage.getItem('persist:shinobu'))) ?? '{}'),
      ).toMatchObject({ memorialAdmin: { completed: false } });
    }
    if (start === 'standard' && endsIn(path, 'mailSent')) {
      expect(replay.sent.at(-1)?.url()).toMatch(/\/v1\/user$/);
      expect(request).toMatchObject({ email: replay.email, admin_pet_id: null });
    }
    if (start === 'external') {
      // The provider's identity, vouched for by the server, and no password of the member's.
      expect(replay.sent.at(-1)?.url()).toMatch(/\/create_user_with_external_provider$/);
      expect(request).toMatchObject({
        user_request: { email: replay.email, username: 'hanako' },
        provider_request: { provider_name: 'line' },
      });
      expect((request!.user_request as Record<string, unknown>).password).toBeUndefined();
      // The mailed link signs the new member in, through a new sign-in with the provider's
      // account the registration was made with.
      await page.goto((await mailedActivationLink(replay.email)).href);
      await page.getByRole('link', { name: 'LINEでログインして登録を完了する' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      expect(await sessionUser(page)).toMatchObject({ username: 'hanako' });
    }
    await context.close();
  });
}
