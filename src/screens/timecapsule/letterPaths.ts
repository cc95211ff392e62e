/** Where a letter is read (the members' mail links here too) and where its writer edits it. */
export const letterPath = (letterId: string) =>
  `/timecapsule/letters/${encodeURIComponent(letterId)}`;
export const editLetterPath = (letterId: string) =>
  `/timecapsule/edit/${encodeURIComponent(letterId)}`;
