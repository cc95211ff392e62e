import { FluentBundle, FluentResource } from '@fluent/bundle';
import { LocalizationProvider, ReactLocalization } from '@fluent/react';
import { useEffect, useState, type ReactNode } from 'react';

export const LOCALE = 'ja';

export async function loadBundle(
  locale = LOCALE,
  fetchImpl: typeof fetch = fetch,
): Promise<FluentBundle> {
  const response = await fetchImpl(`/i18n/${locale}/translation.ftl`);
  if (!response.ok) throw new Error(`translation load failed: HTTP ${response.status}`);
  return bundleFrom(await response.text(), locale);
}

function emptyBundle(locale: string): FluentBundle {
  // Dates and numbers are formatted by our own helpers, so Fluent's isolation marks only get in the way.
  return new FluentBundle(locale, { useIsolating: false });
}

/** The bundle of the Fluent resource `text`. */
export function bundleFrom(text: string, locale = LOCALE): FluentBundle {
  const bundle = emptyBundle(locale);
  const errors = bundle.addResource(new FluentResource(text));
  for (const error of errors) console.error('translation error', error);
  return bundle;
}

/** Shows "Loading..." until the Japanese translations arrive; a failure is logged, not shown. */
export function I18nProvider({ children, bundle }: { children: ReactNode; bundle?: FluentBundle }) {
  const [l10n, setL10n] = useState<ReactLocalization | undefined>(() =>
    bundle ? new ReactLocalization([bundle]) : undefined,
  );
  useEffect(() => {
    if (bundle) return;
    let cancelled = false;
    loadBundle()
      .then((loaded) => {
        if (!cancelled) setL10n(new ReactLocalization([loaded]));
      })
      .catch((error: unknown) => {
        console.error('translation load failed', error);
        if (!cancelled) setL10n(new ReactLocalization([]));
      });
    return () => {
      cancelled = true;
    };
  }, [bundle]);
  if (!l10n) return <p>Loading...</p>;
  return <LocalizationProvider l10n={l10n}>{children}</LocalizationProvider>;
}
