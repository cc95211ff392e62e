import { assign, fromPromise, setup } from 'xstate';

/**
 * An administrator reports that a member they look after may have died
 * (docs/death-detection.md, `POST /v1/fpos/report_death_suspected`): a reason, and an
 * optional document (an image such as a notice of death) uploaded first through the app's
 * upload path with its progress shown and a cancel. What the member typed stays through a
 * failed upload or a failed report; `error` is a code the screen words in Japanese.
 */

export interface DeathReportInput {
  userId: string;
}

export interface DeathReportContext {
  userId: string;
  note: string;
  /** The uploaded document: the store's name and the file name the member chose. */
  document: { imageName: string; fileName: string } | null;
  /** The file being uploaded and how much of it is sent (0–100). */
  uploading: { file: File; percent: number } | null;
  error: string | null;
}

export type DeathReportEvent =
  | { type: 'NOTE'; value: string }
  | { type: 'PICK_DOCUMENT'; file: File }
  | { type: 'UPLOAD_PROGRESS'; percent: number }
  | { type: 'CANCEL_UPLOAD' }
  | { type: 'REMOVE_DOCUMENT' }
  | { type: 'SUBMIT' };

export const REPORT_NOTE_LIMIT = 500;

/** An API error's `code`, or `fallback`: machines keep codes, screens word them in Japanese. */
const codeOf = (error: unknown, fallback: string): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : fallback;
};

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "deathReport" was not provided`);
  });

export const deathReportMachine = setup({
  types: {
    context: {} as DeathReportContext,
    events: {} as DeathReportEvent,
    input: {} as DeathReportInput,
  },
  actors: {
    /** Uploads the file; `onProgress` feeds the machine its UPLOAD_PROGRESS events. */
    uploadDocument: notProvided<string, { file: File; onProgress: (percent: number) => void }>(
      'uploadDocument',
    ),
    submitReport: notProvided<
      void,
      { userId: string; note: string; documentImageName: string | null }
    >('submitReport'),
  },
  actions: {
    reported: () => undefined,
  },
  guards: {
    noteFits: ({ context }) => context.note.length <= REPORT_NOTE_LIMIT,
  },
}).createMachine({
  id: 'deathReport',
  context: ({ input }) => ({
    userId: input.userId,
    note: '',
    document: null,
    uploading: null,
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        NOTE: { actions: assign({ note: ({ event }) => event.value }) },
        PICK_DOCUMENT: {
          target: 'uploading',
          actions: assign({
            uploading: ({ event }) => ({ file: event.file, percent: 0 }),
            error: null,
          }),
        },
        REMOVE_DOCUMENT: { actions: assign({ document: null }) },
        SUBMIT: [
          { guard: 'noteFits', target: 'submitting', actions: assign({ error: null }) },
          { actions: assign({ error: 'note_too_long' }) },
        ],
      },
    },
    uploading: {
      invoke: {
        id: 'uploadDocument',
        src: 'uploadDocument',
        input: ({ context, self }) => ({
          file: context.uploading!.file,
          onProgress: (percent: number) => self.send({ type: 'UPLOAD_PROGRESS', percent }),
        }),
        onDone: {
          target: 'editing',
          actions: assign({
            document: ({ context, event }) => ({
              imageName: event.output,
              fileName: context.uploading!.file.name,
            }),
            uploading: null,
          }),
        },
        onError: {
          target: 'editing',
          actions: assign({
            uploading: null,
            error: ({ event }) => codeOf(event.error, 'upload_failed'),
          }),
        },
      },
      on: {
        NOTE: { actions: assign({ note: ({ event }) => event.value }) },
        UPLOAD_PROGRESS: {
          actions: assign({
            uploading: ({ context, event }) => ({ ...context.uploading!, percent: event.percent }),
          }),
        },
        // Leaving the state stops the upload actor, which aborts the request.
        CANCEL_UPLOAD: { target: 'editing', actions: assign({ uploading: null }) },
      },
    },
    submitting: {
      invoke: {
        id: 'submitReport',
        src: 'submitReport',
        input: ({ context }) => ({
          userId: context.userId,
          note: context.note,
          documentImageName: context.document?.imageName ?? null,
        }),
        onDone: { target: 'reported', actions: 'reported' },
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => codeOf(event.error, 'report_failed') }),
        },
      },
    },
    reported: { type: 'final' },
  },
});
