/**
 * The stored user id must be a string; one that is not logs the user out at
 * start. The persisted-state restore drops such a user; this reads the raw stored value,
 * before anything rewrites it, to tell "nothing stored" from "something wrong stored".
 */
export function storedUserIdIsInvalid(persisted: string | null): boolean {
  if (!persisted) return false;
  try {
    const user = (JSON.parse(persisted) as { user?: unknown }).user;
    if (user === null || user === undefined) return false;
    return typeof user !== 'object' || typeof (user as { id?: unknown }).id !== 'string';
  } catch {
    return true;
  }
}
