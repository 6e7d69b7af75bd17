import { Command } from 'commander';
import { keysCommand } from './keys-command.js';
import { packageVersion } from './package-version.js';
import { serveCommand } from './serve-command.js';
import { sessionEndCommand, sessionStartCommand } from './session-command.js';
import { tokenCommand } from './token-command.js';
import { webhooksCommand } from './webhooks-command.js';

const program = new Command()
  .name('palaver')
  .description('Palaver: realtime voice and chat agents platform')
  .version(packageVersion(), '-v, --version', 'print the version of @palaver/sdk-node')
  .showHelpAfterError();

program
  .command('serve')
  .description('start the platform (embedded defaults: SQLite in memory, embedded media, offline speech and LLM)')
  .option('-p, --port <port>', 'port to listen on (default: PORT or 8080)')
  .option('--host <host>', 'interface to bind (default 127.0.0.1)')
  .option('-d, --database <path-or-url>', 'SQLite file or postgres:// URL (default: in memory)')
  .action(serveCommand);

program
  .command('token')
  .description('mint a usage token for a human through a running platform')
  .requiredOption('--human <id>', "the customer's user id")
  .option('--ttl <seconds>', 'lifetime in seconds (default 3600)')
  .option('--url <url>', 'platform URL (default PALAVER_URL or http://127.0.0.1:8080)')
  .option('--api-key <key>', 'API key (default PALAVER_API_KEY)')
  .action(tokenCommand);

const session = program.command('session').description('start or end a realtime agent session through a running platform');
session
  .command('start')
  .description('start a session and print its id and the LiveKit url and token to join it with')
  .option('--worker <agent-name>', "a LiveKit Agents worker's agent (the agentName it registered); default: the built-in agent")
  .option('--metadata <text>', "with --worker: handed to the worker's job (ctx.job.metadata)")
  .option('--llm <id>', 'LLM of the built-in agent (default builtin-offline)')
  .option('--time-limit <seconds>', 'seconds the session may last')
  .option('--human <id>', 'the human the session is for (x-human-id)')
  .option('--url <url>', 'platform URL (default PALAVER_URL or http://127.0.0.1:8080)')
  .option('--api-key <key>', 'API key (default PALAVER_API_KEY)')
  .option('--json', 'print the whole answer as JSON')
  .action(sessionStartCommand);
session
  .command('end')
  .description('end a session: its agent leaves the room')
  .argument('<session>', 'session id')
  .option('--human <id>', 'the human the session is for (x-human-id)')
  .option('--url <url>', 'platform URL (default PALAVER_URL or http://127.0.0.1:8080)')
  .option('--api-key <key>', 'API key (default PALAVER_API_KEY)')
  .action(sessionEndCommand);

program
  .command('keys')
  .description('list, create or revoke API keys of the development project')
  .argument('[action]', 'list | create | revoke', 'list')
  .argument('[id]', 'key id (revoke)')
  .option('-d, --database <path-or-url>', 'SQLite file or postgres:// URL')
  .option('--name <name>', 'name of a new key')
  .action(keysCommand);

program
  .command('webhooks')
  .description('manage webhook endpoints and inspect or replay deliveries of the development project')
  .argument('[action]', 'list | add <url> | remove <id> | enable <id> | disable <id> | deliveries | show <delivery> | replay <delivery>', 'list')
  .argument('[argument]', 'url, endpoint id or delivery id')
  .option('-d, --database <path-or-url>', 'SQLite file or postgres:// URL')
  .option('--secret <secret>', 'signing secret of a new endpoint (generated when absent)')
  .option('--status <status>', 'deliveries: pending | delivering | delivered | failed')
  .option('--event <id>', 'deliveries/replay: one event')
  .option('--failed', 'replay every failed delivery')
  .option('--limit <n>', 'deliveries: how many (default 50)')
  .action(webhooksCommand);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`palaver: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
