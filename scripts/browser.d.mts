// Types of scripts/browser.mjs for the TypeScript tests.
import type { Browser } from 'playwright-core';

export const CHROMIUM: string;
export function haveChromium(what?: string): boolean;
export function launchChromium(extraArgs?: string[]): Promise<Browser>;
export function serveStatic(mounts: Record<string, string>): Promise<{ url: string; close(): Promise<void> }>;
