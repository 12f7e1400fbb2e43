// The CLI's commands, in the order --help lists them. Add a command: one file in this folder, one line here.
import type { Command } from '../command';
import { analyzeCommand } from './analyze';
import { convertCommand } from './convert';
import { lockCommand } from './lock';
import { verifyCommand } from './verify';
import { auditCommand } from './audit';
import { hardenCommand } from './harden';
import { scanCommand } from './scan';
import { serveCommand } from './serve';

export const commands: Command[] = [
  analyzeCommand,
  convertCommand,
  lockCommand,
  verifyCommand,
  auditCommand,
  hardenCommand,
  scanCommand,
  serveCommand,
];
