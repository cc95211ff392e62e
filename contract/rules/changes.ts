/**
 * The rule of every PATCH body: it names at least one field it changes. Fields a schema does
 * not know are dropped, so `{}` and a body of unknown fields alone are both refused.
 */
export const NOTHING_TO_CHANGE = { error: 'nothing_to_change' } as const;

export function namesAChange(value: object): boolean {
  return Object.values(value).some((field) => field !== undefined);
}
