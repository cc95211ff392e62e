// @vitest-environment node
/**
 * The integrators' guide (docs/integrations.md) computes the link proof the server accepts: its
 * worked example's values, its stated signature and its Node.js code agree with the server's
 * own check, so an integrator who follows the guide makes links that work.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLinkProof, linkProofOf } from '../../server/domain/deathDetection/linkProof';

const guide = readFileSync(path.resolve('docs/integrations.md'), 'utf8');

/** The worked example as the guide states it, read from its prose. */
function workedExample() {
  const values =
    /Worked example: client `([^`]+)` with secret `([^`]+)`, its user\s+`([^`]+)`, expiring at `(\d+)`/.exec(
      guide,
    );
  const signature = /its signature is `([0-9a-f]{64})`/.exec(guide);
  if (!values || !signature) throw new Error('docs/integrations.md has no worked example');
  const [, clientId, secret, fposUserId, expires] = values;
  return {
    link: { clientId: clientId!, fposUserId: fposUserId!, expires: Number(expires) },
    secret: secret!,
    signature: signature[1]!,
  };
}

describe('the integrators’ guide', () => {
  it('states a worked example whose signature the server accepts before its expiry', () => {
    const { link, secret, signature } = workedExample();
    expect(linkProofOf(link, secret)).toBe(signature);
    const beforeExpiry = new Date((link.expires - 300) * 1000);
    expect(() => checkLinkProof(link, signature, secret, beforeExpiry)).not.toThrow();
    // A different secret or a moved expiry does not pass: the example is the proof itself.
    expect(() => checkLinkProof(link, signature, `${secret}x`, beforeExpiry)).toThrow();
    expect(() =>
      checkLinkProof({ ...link, expires: link.expires + 1 }, signature, secret, beforeExpiry),
    ).toThrow();
  });

  it('gives Node.js code that prints the stated signature and builds links the server accepts', () => {
    const code = /```js\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(code).toBeDefined();
    const dir = mkdtempSync(path.join(tmpdir(), 'shinobu-guide-'));
    try {
      const file = path.join(dir, 'link.mjs');
      // The guide's code as written, then its own function used as an integrator would.
      writeFileSync(
        file,
        `${code}\nconsole.log(shinobuLinkUrl({ base: 'https://shinobu.example', clientId: 'fpos-demo', secret: 'fpos-demo-secret-0123456789', userId: 'u-7', now: 1795000000000 }));\n`,
      );
      const [printed, url] = execFileSync(process.execPath, [file], { encoding: 'utf8' })
        .trim()
        .split('\n');
      const { link, secret, signature } = workedExample();
      expect(printed).toBe(signature);

      const built = new URL(url!);
      expect(built.pathname).toBe('/integration/link');
      const query = built.searchParams;
      const asked = {
        clientId: query.get('client_id')!,
        fposUserId: query.get('fpos_user_id')!,
        expires: Number(query.get('expires')),
      };
      expect(asked).toEqual({ clientId: link.clientId, fposUserId: 'u-7', expires: 1795000600 });
      expect(() =>
        checkLinkProof(asked, query.get('signature')!, secret, new Date(1795000000000)),
      ).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
