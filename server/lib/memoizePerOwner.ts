/**
 * `make(owner)` made on the first call for that owner and returned again after, for as long
 * as the owner lives (a WeakMap): what an application context, a database, a clock or a file
 * store shares among all the requests it serves, while each application (tests run several
 * in one process) keeps its own.
 */
export function memoizePerOwner<Owner extends object, Value>(
  make: (owner: Owner) => Value,
): (owner: Owner) => Value {
  const made = new WeakMap<Owner, Value>();
  return (owner) => {
    if (made.has(owner)) return made.get(owner)!;
    const value = make(owner);
    made.set(owner, value);
    return value;
  };
}
