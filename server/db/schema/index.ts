// One file per area; each mirrors the SQL migrations that create its tables.
export * from './core';
export * from './connections';
export * from './accounts';
export * from './emailChanges';
export * from './unlockLinks';
export * from './spentProofs';
export * from './endingnote';
export * from './timecapsule';
export * from './notifications';
export * from './memorial';
export * from './deathDetection';
export * from './mail';
export * from './uploads';
export * from './dataExports';
