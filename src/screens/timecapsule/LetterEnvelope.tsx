import type { ReactNode } from 'react';
import { useT } from '../../i18n/useT';
import type { LetterEnvelope as Envelope } from '../../../contract/timecapsule';
import { letterPath } from './letterPaths';
import { LetterItem, LetterLink } from './letterList';
import { deliveryText, namesText } from './letterText';

/**
 * One letter of the time-capsule lists: its title linking to the letter, then what it is about
 * in muted lines; a letter I have not opened yet says so before its title.
 */
export function LetterEnvelope({
  letter,
  unopened = false,
  children,
}: {
  letter: Pick<Envelope, 'timeCapsuleLetterId' | 'title'>;
  unopened?: boolean;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <LetterItem>
      <LetterLink to={letterPath(letter.timeCapsuleLetterId)}>
        {unopened && `${t('timecapsule-unopened')} `}
        {letter.title}
      </LetterLink>
      {children}
    </LetterItem>
  );
}

/** Who a letter not yet received goes to and when, the same in every list that shows it. */
export function LetterSending({
  letter,
}: {
  letter: Pick<Envelope, 'receivers' | 'sendDate' | 'event'>;
}) {
  const t = useT();
  return (
    <>
      <small>{t('timecapsule-to', { names: namesText(t, letter.receivers) })}</small>
      <small>{deliveryText(t, letter)}</small>
    </>
  );
}
