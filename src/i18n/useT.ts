import { useLocalization } from '@fluent/react';
import { useCallback } from 'react';
import type { FluentVariable } from '@fluent/bundle';

/** `t('id', { args })`: the translated string for a Fluent id (the id itself when missing). */
export function useT(): (id: string, args?: Record<string, FluentVariable>) => string {
  const { l10n } = useLocalization();
  return useCallback((id, args) => l10n.getString(id, args ?? null, id), [l10n]);
}
