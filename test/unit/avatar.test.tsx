import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar } from '../../src/components/ui/Avatar';
import defaultProfileImage from '../../src/components/ui/assets/default-profile.svg';
import { answerApi } from './apiAnswers';
import { renderInApp } from './shellProviders';

const photo = 'https://cdn.example.test/yamada.webp';

async function picture() {
  return screen.findByAltText('山田 さんのプロフィール画像');
}

describe('avatar', () => {
  it('shows the image at its address', async () => {
    renderInApp(<Avatar image={photo} name="山田" />);
    expect((await picture()).getAttribute('src')).toBe(photo);
  });

  it('falls back to the default profile image when the image fails to load', async () => {
    renderInApp(<Avatar image={photo} name="山田" />);
    fireEvent.error(await picture());
    await waitFor(async () =>
      expect((await picture()).getAttribute('src')).toBe(defaultProfileImage),
    );
  });

  it('shows the default profile image without an image', async () => {
    renderInApp(<Avatar image={null} name="山田" />);
    expect((await picture()).getAttribute('src')).toBe(defaultProfileImage);
  });

  it('exchanges an object name for a signed address', async () => {
    const signedUrl = '/v1/signed_url?image_name=icons%2Fabc.webp&method=GET';
    const asked = answerApi({
      [signedUrl]: { url: 'http://127.0.0.1/files/icons/abc.webp?signature=1' },
    });
    renderInApp(<Avatar image="icons/abc.webp" name="山田" />);
    await waitFor(async () =>
      expect((await picture()).getAttribute('src')).toBe(
        'http://127.0.0.1/files/icons/abc.webp?signature=1',
      ),
    );
    expect(asked).toEqual([signedUrl]);
  });

  it.each([
    [true, true, '本人確認済み'],
    [false, true, '本人確認未完了'],
  ])('certificated=%s shows its mark', async (certificated, showBadge, mark) => {
    renderInApp(
      <Avatar image={photo} name="山田" certificated={certificated} showBadge={showBadge} />,
    );
    expect(await screen.findByAltText(mark)).toBeTruthy();
  });

  it.each([
    [undefined, true],
    [true, false],
  ])('certificated=%s with showBadge=%s shows no mark', async (certificated, showBadge) => {
    renderInApp(
      <Avatar image={photo} name="山田" certificated={certificated} showBadge={showBadge} />,
    );
    await picture();
    expect(screen.queryByAltText(/本人確認/)).toBeNull();
  });
});
