import { formatCalendarDate, formatTokyoInstantDateTime } from '../../components/ui/calendarDate';
import { onFirstUse } from '../../lib/onFirstUse';
import type { useT } from '../../i18n/useT';
import type { LetterEnvelope, PersonName } from '../../../contract/timecapsule';

type Translate = ReturnType<typeof useT>;

/** Family name first, as names are written in Japanese. */
export const personName = (t: Translate, person: PersonName) =>
  t('timecapsule-person-name', { lastName: person.lastName, firstName: person.firstName });

const nameList = onFirstUse(() => new Intl.ListFormat('ja-JP', { type: 'conjunction' }));

/** Every recipient's name in one line, in the language's own list form. */
export const namesText = (t: Translate, people: PersonName[]) =>
  nameList().format(people.map((person) => personName(t, person)));

/** The same line with the honorific after each name, for a sentence about them. */
export const honouredNamesText = (t: Translate, people: PersonName[]) =>
  nameList().format(people.map((person) => t('person-name-honoured', { ...person })));

/** A UTC instant of the wire in Japan time, in the member's calendar (my page). */
export const japanTime = (at: string) => formatTokyoInstantDateTime(new Date(at));

/**
 * When an envelope goes out: its time once it is known (a dated letter, or a death-triggered
 * one that was released), otherwise the event that will send it.
 */
export function deliveryText(t: Translate, envelope: Pick<LetterEnvelope, 'sendDate' | 'event'>) {
  if (envelope.sendDate)
    return t('timecapsule-delivery-at', { date: japanTime(envelope.sendDate) });
  return t(`timecapsule-event-${envelope.event ?? 'death'}`);
}

/** The admins of an envelope (names come as two parallel lists). */
export const adminsOf = (envelope: LetterEnvelope): PersonName[] =>
  envelope.adminLastNames.map((lastName, index) => ({
    lastName,
    firstName: envelope.adminFirstNames[index] ?? '',
  }));

/** The Buddhist memorial service held N years after a death, when N is one (six: seventh-year). */
const MEMORIAL_SERVICE_OF_YEARS: Record<number, string> = {
  1: 'isshuki',
  2: 'sankaiki',
  6: 'nanakaiki',
  12: 'jusankaiki',
  16: 'junanakaiki',
  22: 'nijusankaiki',
  26: 'nijunanakaiki',
  32: 'sanjusankaiki',
};

export function memorialServiceOf(t: Translate, years: number): string | undefined {
  const code = MEMORIAL_SERVICE_OF_YEARS[years];
  return code && t(`anniversary-${code}`);
}

/** A calendar date `YYYY-MM-DD` written the Japanese way. */
export const japanDate = (day: string) => formatCalendarDate(day);
