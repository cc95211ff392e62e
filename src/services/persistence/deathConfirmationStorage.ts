import type {
  DeathConfirmationOutcome,
  DeathConfirmationProgress,
  DeathConfirmationSubject,
} from '../../machines/deathConfirmation';

/** localStorage keys of the death confirmation's reminders. */
export const STEPS_MODAL_SHOWN_KEY = 'lastDeathConfirmationStepsModalShowDate';
export const CONFIRMATION_DATA_KEY = 'deathConfirmationData';
export const CONFIRMATION_COMPLETION_KEY = 'deathConfirmationCompletionData';

function read<T>(key: string, valid: (value: Record<string, unknown>) => boolean): T | null {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
    return typeof value === 'object' && value !== null && valid(value as Record<string, unknown>)
      ? (value as T)
      : null;
  } catch {
    return null;
  }
}

const hasSubject = (value: Record<string, unknown>) => {
  const subject = value.subject as Partial<DeathConfirmationSubject> | undefined;
  return typeof subject?.userId === 'string' && typeof subject.name === 'string';
};

export const deathConfirmationStorage = {
  lastStepsModalShown: () => localStorage.getItem(STEPS_MODAL_SHOWN_KEY),
  rememberStepsModalShown: (date: string) => localStorage.setItem(STEPS_MODAL_SHOWN_KEY, date),
  /** The shared data the death-detection modal hands to the confirmation flow. */
  start: (subject: DeathConfirmationSubject) => {
    localStorage.removeItem(CONFIRMATION_COMPLETION_KEY);
    // Left earlier for the same member: resume where it was, with what was entered.
    if (deathConfirmationStorage.progress()?.subject.userId === subject.userId) return;
    const progress: DeathConfirmationProgress = {
      subject,
      step: 'who',
      dateOfDeath: '',
      relationship: null,
    };
    localStorage.setItem(CONFIRMATION_DATA_KEY, JSON.stringify(progress));
  },
  progress: () =>
    read<DeathConfirmationProgress>(
      CONFIRMATION_DATA_KEY,
      (value) => hasSubject(value) && typeof value.step === 'string',
    ),
  saveProgress: (update: Omit<DeathConfirmationProgress, 'subject'>) => {
    const current = deathConfirmationStorage.progress();
    if (current)
      localStorage.setItem(CONFIRMATION_DATA_KEY, JSON.stringify({ ...current, ...update }));
  },
  completion: () =>
    read<DeathConfirmationOutcome>(
      CONFIRMATION_COMPLETION_KEY,
      (value) => hasSubject(value) && typeof value.state === 'string',
    ),
  complete: (outcome: DeathConfirmationOutcome) => {
    localStorage.setItem(CONFIRMATION_COMPLETION_KEY, JSON.stringify(outcome));
    localStorage.removeItem(CONFIRMATION_DATA_KEY);
  },
  clear: () => {
    localStorage.removeItem(CONFIRMATION_DATA_KEY);
    localStorage.removeItem(CONFIRMATION_COMPLETION_KEY);
  },
};
