import type { ReactNode } from 'react';
import { useT } from '../../i18n/useT';
import { Page } from './pageLayout';

/** A screen whose data is still being read: its title, and that it is being read. */
export function PageLoading({ title }: { title: string }) {
  const t = useT();
  return (
    <Page aria-busy="true">
      <h1>{title}</h1>
      <p>{t('dashboard-loading')}</p>
    </Page>
  );
}

/** A screen whose data could not be read: its title, why, and a way on where there is one. */
export function PageFailed({
  title,
  message,
  children,
}: {
  title: string;
  message: string;
  children?: ReactNode;
}) {
  return (
    <Page>
      <h1>{title}</h1>
      <p role="alert">{message}</p>
      {children}
    </Page>
  );
}
