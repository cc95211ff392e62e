import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useT } from '../../i18n/useT';
import { NEW_TAB_LINK, externalLinks } from '../externalLinks';
import { Icon } from './icons';
import type { MenuEntry } from './menu';
import { useOpenRule } from './useMenuNavigation';

/** The label id of a menu entry in translation.ftl. */
export function menuLabelId(entry: MenuEntry): string {
  return `menu-${entry.id}`;
}

/**
 * One menu entry, as what it is: an in-app link, an external link in a new tab (announced
 * as such), or a button that runs the entry's navigation rule. `className` lets each menu
 * give it its look.
 */
export function MenuLink({
  entry,
  className,
  children,
}: {
  entry: MenuEntry;
  className?: string;
  children?: ReactNode;
}) {
  const t = useT();
  const openRule = useOpenRule();
  const label = children ?? t(menuLabelId(entry));
  switch (entry.kind) {
    case 'route':
      return (
        <Link className={className} to={entry.to}>
          {label}
        </Link>
      );
    case 'external':
      return (
        <a
          className={className}
          href={externalLinks[entry.link]}
          {...NEW_TAB_LINK}
          aria-label={`${t(menuLabelId(entry))} ${t('menu-opens-new-tab')}`}
        >
          {label} <Icon name="external" size={14} />
        </a>
      );
    case 'rule':
      return (
        <button type="button" className={className} onClick={() => openRule(entry.rule)}>
          {label}
        </button>
      );
  }
}
