#!/usr/bin/env node
// The `animcore` command: each command and its options are declared in its own file; this one
// assembles them and turns errors into messages and exit statuses (0 done, 1 a file failed, 2 misuse).
import { Command, CommanderError } from 'commander';
import { version } from '../../package.json';
import { errorLine, exitCodeOf, isExpected } from './errors.js';
import { examplesCommand } from './examples.js';
import { infoCommand } from './info.js';
import { resampleCommand } from './resample.js';
import { sampleCommand } from './sample.js';

const program = new Command('animcore')
  .description('Read, sample and convert animation files (glTF 2.0, Nebula, Meteor, MRTK, ABTOMAT AAF) with a WebAssembly core')
  .version(version, '-v, --version', 'print the version')
  .helpOption('-h, --help', 'print help')
  .helpCommand('help [command]', 'print help of a command')
  .exitOverride()
  .configureOutput({ outputError: (text, write) => write(`animcore: ${text.replace(/^error: /, '')}`) })
  .showHelpAfterError('(see animcore --help)')
  .addHelpText('after', '\nExamples:\n  animcore examples examples\n  animcore info examples/nebula/wave.nax3\n  animcore sample examples/nebula/wave.nax3 --time 0.5\n  animcore resample examples --fps 30 --out out');

for (const command of [infoCommand(), sampleCommand(), resampleCommand(), examplesCommand()]) {
  program.addCommand(command.copyInheritedSettings(program).showHelpAfterError(`(see animcore ${command.name()} --help)`));
}

// `animcore … | head` closes the pipe before the output ends: the reader wants no more, which is no error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});

async function main(): Promise<void> {
  try {
    if (process.argv.length <= 2) {
      program.outputHelp();
      return;
    }
    await program.parseAsync(process.argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Commander has printed the help, the version or the message.
      process.exitCode = e.exitCode === 0 ? 0 : 2;
    } else if (isExpected(e)) {
      console.error(`animcore: ${errorLine(e)}`);
      process.exitCode = exitCodeOf(e);
    } else {
      throw e;
    }
  }
}

void main();
