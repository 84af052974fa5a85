// Every public symbol (what `animcore` and `animcore/three` export: classes, functions,
// interfaces, types, constants, and the methods and accessors of classes) has a docstring, and
// no public signature refers to a type the package does not export. TypeDoc's own validation
// (typedoc.json, the configuration `npm run docs` uses) finds them; this test fails on any.
import { Application, Logger, LogLevel } from 'typedoc';
import { expect, it } from 'vitest';

class CollectingLogger extends Logger {
  readonly warnings: string[] = [];
  override log(message: string, level: LogLevel): void {
    super.log(message, level);
    if (level >= LogLevel.Warn) this.warnings.push(message);
  }
}

it('documents every public symbol (TypeDoc validation: notDocumented, notExported, invalidLink)', async () => {
  const app = await Application.bootstrapWithPlugins({ emit: 'none', logLevel: 'Warn' });
  const logger = new CollectingLogger();
  app.logger = logger;
  const project = await app.convert();
  expect(project, 'TypeDoc could not convert the entry points').toBeDefined();
  app.validate(project!);
  expect(logger.warnings).toEqual([]);
}, 120_000);
