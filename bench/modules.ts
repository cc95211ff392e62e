import { accountsBench } from './accounts';
import { backupBench } from './backup';
import { bundleBench } from './bundle';
import { codeSizeBench } from './codeSize';
import { dataExportBench } from './dataExport';
import { databaseFaultsBench } from './databaseFaults';
import { coldStartBench } from './coldStart';
import { deathDetectionBench } from './deathDetection';
import { endingNoteBench } from './endingnote';
import { httpBench } from './http';
import { lighthouseBench } from './lighthouse';
import { memorialBench } from './memorial';
import { memorialPageBench } from './memorialPage';
import { npmStartBench } from './npmStart';
import { chaosBench, soakBench } from './operations';
import { scaleBench } from './scale';
import { socialBench } from './search';
import { timeCapsuleBench } from './timecapsule';
import type { BenchModule } from './types';

/** Every bench group, in the order they run and print. */
export const BENCH_MODULES: BenchModule[] = [
  codeSizeBench,
  bundleBench,
  coldStartBench,
  npmStartBench,
  httpBench,
  lighthouseBench,
  memorialBench,
  memorialPageBench,
  timeCapsuleBench,
  endingNoteBench,
  dataExportBench,
  socialBench,
  accountsBench,
  deathDetectionBench,
  backupBench,
  chaosBench,
  soakBench,
  databaseFaultsBench,
  scaleBench,
];
