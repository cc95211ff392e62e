import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { externalLinks, NEW_TAB_LINK } from '../externalLinks';
import appStoreQr from './assets/qr-app-store.svg';
import googlePlayQr from './assets/qr-google-play.svg';

const List = styled.ul`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 16px;
  margin: 16px 0 0;
  padding: 0;
  list-style: none;
`;

const Store = styled.li`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 8px;
  a {
    min-height: 44px;
    display: inline-flex;
    align-items: center;
    font-weight: bold;
    color: ${({ theme }) => theme.colours.primary};
  }
`;

/**
 * A QR code is for a phone to scan another screen: a phone-sized screen, or a touch screen
 * without a mouse (a phone held sideways, a tablet), shows only the link.
 */
const Code = styled.img`
  width: 112px;
  height: 112px;
  background: #ffffff;
  @media (max-width: 599px), (pointer: coarse) and (hover: none) {
    display: none;
  }
`;

/**
 * Where a plain browser is pointed to the app: each store's link with its QR code.
 * The QR images are static files generated once for the default store addresses
 * (docs/native-bridge.md, "Store links and QR codes").
 */
export function AppStoreLinks() {
  const t = useT();
  const stores = [
    { id: 'app-store', href: externalLinks.appStore, qr: appStoreQr },
    { id: 'google-play', href: externalLinks.googlePlay, qr: googlePlayQr },
  ];
  return (
    <List aria-label={t('app-store-list-label')}>
      {stores.map((store) => (
        <Store key={store.id}>
          <Code src={store.qr} alt={t(`app-store-qr-${store.id}`)} />
          <a
            href={store.href}
            {...NEW_TAB_LINK}
            aria-label={`${t(`app-store-link-${store.id}`)} ${t('menu-opens-new-tab')}`}
          >
            {t(`app-store-link-${store.id}`)}
          </a>
        </Store>
      ))}
    </List>
  );
}
