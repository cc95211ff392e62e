import { expect } from 'vitest';
import { deathReportMachine, REPORT_NOTE_LIMIT } from '../../src/machines/deathReport';
import { describeModel, type StepInfo } from './modelTest';
import { ownActions } from './navigationSupport';

const MEMBER = 'user-mother';
const notice = new File(['jpeg'], 'notice.jpg', { type: 'image/jpeg' });
const REASON = '病院から連絡がありました';
/** The longest reason that may be sent: 500 characters. */
const LONGEST = 'あ'.repeat(500);

/** An upload's refusal, and the code the member is shown for it. */
const uploadErrorCode = new Map<unknown, string>([
  [Object.assign(new Error('refused'), { code: 'not_an_image' }), 'not_an_image'],
  [new Error('offline'), 'upload_failed'],
  // A code that is not one of the API's (those are snake_case) is not shown as one.
  [Object.assign(new Error('reset'), { code: 'socket-hang-up' }), 'upload_failed'],
  // A rejection that carries nothing.
  [undefined, 'upload_failed'],
]);

/** A document was uploaded on this path and not removed since. */
const hasDocument = (step: StepInfo) =>
  step.path.findLast((earlier) =>
    ['xstate.done.actor.uploadDocument', 'REMOVE_DOCUMENT'].includes(earlier.event?.type ?? ''),
  )?.event?.type === 'xstate.done.actor.uploadDocument';

/** The reason as the member last typed it on this path. */
const typedNote = (step: StepInfo) =>
  (step.path.findLast((earlier) => earlier.event?.type === 'NOTE')?.event?.value as string) ?? '';

describeModel('deathReport', {
  machine: deathReportMachine,
  input: { userId: MEMBER },
  // The form's controls exist while editing; the upload's progress and cancel while uploading;
  // an invoked call settles only in its own state.
  events: ((snapshot: { matches: (state: string) => boolean; context: { note: string } }) => {
    if (snapshot.matches('editing'))
      return [
        { type: 'NOTE', value: REASON },
        { type: 'NOTE', value: LONGEST },
        { type: 'NOTE', value: 'あ'.repeat(REPORT_NOTE_LIMIT + 1) },
        { type: 'PICK_DOCUMENT', file: notice },
        { type: 'REMOVE_DOCUMENT' },
        { type: 'SUBMIT' },
      ];
    if (snapshot.matches('uploading'))
      return [
        { type: 'NOTE', value: REASON },
        { type: 'UPLOAD_PROGRESS', percent: 40 },
        { type: 'CANCEL_UPLOAD' },
        { type: 'xstate.done.actor.uploadDocument', output: 'uploads/notice.jpg' },
        ...[...uploadErrorCode.keys()].map((error) => ({
          type: 'xstate.error.actor.uploadDocument',
          error,
        })),
      ];
    if (snapshot.matches('submitting'))
      return [
        { type: 'xstate.done.actor.submitReport', output: undefined },
        { type: 'xstate.error.actor.submitReport', error: new Error('offline') },
      ];
    return [];
  }) as never,
  states: {
    editing: (snapshot, step) => {
      expect(Object.keys(snapshot.children)).toEqual([]);
      expect(snapshot.context.uploading).toBeNull();
      const event = step.event;
      if (event?.type === 'SUBMIT') {
        expect(typedNote(step).length).toBeGreaterThan(LONGEST.length);
        expect(snapshot.context.error).toBe('note_too_long');
      }
      if (event?.type === 'xstate.error.actor.uploadDocument')
        expect(snapshot.context.error).toBe(uploadErrorCode.get(event.error));
      if (event?.type === 'xstate.error.actor.submitReport')
        expect(snapshot.context.error).toBe('report_failed');
      if (event?.type === 'xstate.done.actor.uploadDocument')
        expect(snapshot.context.document).toEqual({
          imageName: 'uploads/notice.jpg',
          fileName: 'notice.jpg',
        });
      if (event?.type === 'REMOVE_DOCUMENT') expect(snapshot.context.document).toBeNull();
    },
    uploading: (snapshot, step) => {
      expect(Object.keys(snapshot.children)).toEqual(['uploadDocument']);
      expect(snapshot.context.uploading?.file).toBe(notice);
      if (step.event?.type === 'PICK_DOCUMENT') {
        expect(snapshot.context.uploading?.percent).toBe(0);
        expect(step.invoked).toMatchObject([{ src: 'uploadDocument', input: { file: notice } }]);
      }
      if (step.event?.type === 'UPLOAD_PROGRESS')
        expect(snapshot.context.uploading?.percent).toBe(40);
      // What the member types while the file goes up is kept.
      if (step.event?.type === 'NOTE') expect(snapshot.context.note).toBe(REASON);
    },
    submitting: (snapshot, step) => {
      if (step.event?.type === 'SUBMIT')
        expect(step.invoked).toEqual([
          {
            src: 'submitReport',
            input: {
              userId: MEMBER,
              note: typedNote(step),
              documentImageName: hasDocument(step) ? 'uploads/notice.jpg' : null,
            },
          },
        ]);
      // Only a reason within the limit is sent; what was typed is kept for a retry.
      expect(snapshot.context.note.length).toBeLessThanOrEqual(REPORT_NOTE_LIMIT);
      expect(snapshot.context.error).toBeNull();
      expect(Object.keys(snapshot.children)).toEqual(['submitReport']);
    },
    reported: (snapshot, step) => {
      expect(snapshot.status).toBe('done');
      expect(ownActions(step.actions)).toEqual(['reported']);
    },
  },
  serializeState: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.note.length,
      snapshot.context.document !== null,
      snapshot.context.uploading?.percent ?? null,
      snapshot.context.error,
    ]),
});
