// @vitest-environment node
/**
 * The build-time render of /login (src/snapshot/prerender.tsx, run by vite.config.ts into
 * `dist/login-snapshot.json`): the login screen as a signed-out visitor sees it once
 * everything has loaded, never a loading state, with the styles it needs and nothing the
 * client's styled-components would take over.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundleFrom } from '../../src/i18n/I18nProvider';
import { plainCss, renderSnapshot } from '../../src/snapshot/prerender';

const translations = readFileSync('src/i18n/ja/translation.ftl', 'utf8');
const text = (id: string) => {
  const bundle = bundleFrom(translations);
  return bundle.formatPattern(bundle.getMessage(id)!.value!);
};

describe('the prerendered /login', () => {
  it('is the login form inside the visitor frame, without a loading state', async () => {
    const { html, css } = await renderSnapshot('/login', translations);
    expect(html).toContain(`<h1>${text('login-title')}</h1>`);
    expect(html).toContain(text('login-lead'));
    expect(html).toMatch(/<form[^>]*novalidate/i);
    expect(html).toMatch(/<input[^>]*id="login-email"/);
    expect(html).toMatch(/<input[^>]*id="login-password"/);
    expect(html).toMatch(new RegExp(`<button[^>]*type="submit"[^>]*>${text('login-submit')}<`));
    // The visitor's header entries, the footer, no member menus and no banner on /login.
    expect(html).toContain('href="/register-top?register=true"');
    expect(html).toContain('<footer');
    expect(html).not.toContain('/notification/list');
    // No loading state of any gate (translations, client state, route, session).
    for (const loading of ['Loading...', text('route-loading'), 'role="status"']) {
      expect(html).not.toContain(loading);
    }
    expect(css.length).toBeGreaterThan(1000);
    expect(css).not.toContain('data-styled');
    expect(css).not.toContain('<');
  });

  it("keeps styled-components' rules and drops its rehydration records", () => {
    const tags =
      '<style data-styled="true" data-styled-version="6">.a{color:red;}/*!sc*/\n' +
      'data-styled.g1[id="sc-x"]{content:"a,"}/*!sc*/\n</style>';
    expect(plainCss(tags)).toBe('.a{color:red;}');
  });
});
