import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AxiosError, AxiosHeaders } from 'axios';
import { describe, expect, it } from 'vitest';
import type { Timestamp } from '../../contract/common';
import { ANNIVERSARY_RULES } from '../../server/domain/memorial/anniversaries';
import { bundleFrom } from '../../src/i18n/I18nProvider';
import type { AlbumPhoto, ShareToken } from '../../src/services/api/memorial';
import { UploadRefused } from '../../src/services/api/uploads';
import { movedOrder } from '../../src/screens/memory/AlbumEditing';
import { invitationUrl, lineShareUrl } from '../../src/screens/memory/invitationLink';
import { InvalidInput, problemsOf } from '../../src/screens/memory/inputProblems';

const screensDir = path.join(__dirname, '../../src/screens/memory');
const bundle = bundleFrom(
  readFileSync(path.join(__dirname, '../../src/i18n/ja/translation.ftl'), 'utf8'),
);

describe('memorial screens: texts', () => {
  it('has a label for every anniversary the server computes', () => {
    for (const { code } of ANNIVERSARY_RULES) {
      expect(bundle.hasMessage(`anniversary-${code}`), code).toBe(true);
    }
  });

  it('has every Fluent id the memorial screens name literally', () => {
    const ids = readdirSync(screensDir).flatMap((file) => [
      ...readFileSync(path.join(screensDir, file), 'utf8').matchAll(
        /['`]((?:memory|mourning|invitation|memorial)-[a-z0-9-]+)['`]/g,
      ),
    ]);
    expect(ids.length).toBeGreaterThan(50);
    const missing = ids.map((match) => match[1]!).filter((id) => !bundle.hasMessage(id));
    expect(missing).toEqual([]);
  });

  it('has every privacy label and every unavailable reason', () => {
    for (const id of [
      'memory-privacy-public',
      'memory-privacy-link',
      'memory-privacy-connections',
      'memory-privacy-admins',
      'memory-unavailable-sign-in',
      'memory-unavailable-not-found',
      'memory-unavailable-failed',
      'memory-role-admin',
      'memory-role-viewer',
      'mourning-status-pending',
      'mourning-status-hidden',
    ]) {
      expect(bundle.hasMessage(id), id).toBe(true);
    }
  });
});

describe('album order', () => {
  const photos = ['a', 'b', 'c'].map((id) => ({ id }) as AlbumPhoto);

  it('swaps a photo with its neighbour', () => {
    expect(movedOrder(photos, 1, -1)).toEqual(['b', 'a', 'c']);
    expect(movedOrder(photos, 1, 1)).toEqual(['a', 'c', 'b']);
  });

  it('keeps the order at either end', () => {
    expect(movedOrder(photos, 0, -1)).toEqual(['a', 'b', 'c']);
    expect(movedOrder(photos, 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('invitation links', () => {
  const share: ShareToken = {
    token: 'tok/en+1',
    invitingUserId: 'user-1',
    memorialPageId: 'page-1',
    setAdmin: true,
    expiresAt: '2026-11-29T00:00:00.000Z' as Timestamp,
  };

  it('carries the token, the inviting member and setAdmin', () => {
    const url = new URL(invitationUrl('https://shinobu.example', share, false));
    expect(url.pathname).toBe('/memory/invitation');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      shareToken: 'tok/en+1',
      invitingUserId: 'user-1',
      setAdmin: 'true',
    });
  });

  it('marks an admin link of a pet page for pet-mode registration, and only that', () => {
    expect(new URL(invitationUrl('https://s.example', share, true)).searchParams.get('pet')).toBe(
      'true',
    );
    const viewerLink = invitationUrl('https://s.example', { ...share, setAdmin: false }, true);
    expect(new URL(viewerLink).searchParams.has('pet')).toBe(false);
  });

  it('shares through LINE with the whole link encoded', () => {
    const link = invitationUrl('https://s.example', share, false);
    const line = new URL(lineShareUrl(link));
    expect(line.origin).toBe('https://social-plugins.line.me');
    expect(line.searchParams.get('url')).toBe(link);
  });
});

describe('problems of a failed save', () => {
  it('names the fields of a 422', () => {
    const response = {
      status: 422,
      statusText: 'Unprocessable Entity',
      headers: {},
      config: { headers: new AxiosHeaders() },
      data: { detail: 'invalid', errors: [{ field: 'image_name', code: 'not_an_image' }] },
    };
    const error = new AxiosError('422', 'ERR_BAD_REQUEST', undefined, undefined, response);
    expect(problemsOf(error)).toEqual({ image_name: 'not_an_image' });
  });

  it('tells a refused upload and a refused input', () => {
    expect(problemsOf(new UploadRefused('image_too_large'))).toEqual({
      image_name: 'image_too_large',
    });
    expect(problemsOf(new InvalidInput({ body: 'required' }))).toEqual({ body: 'required' });
  });

  it('says a save failed when nothing names a field', () => {
    expect(problemsOf(new Error('network'))).toEqual({ form: 'save_failed' });
  });
});
