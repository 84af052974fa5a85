// Every test file runs fast-check with the run's one seed (printed once by print-seed.ts).
import fc from 'fast-check';
import { fastCheckSeed } from './fast-check-seed.js';

fc.configureGlobal({ seed: fastCheckSeed() });
