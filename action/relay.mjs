// Runs a debug adapter that listens on a TCP port (delve's `dlv dap`) inside the sandbox and
// relays DAP between this process's stdio and that port: the sandbox has no network to the host,
// so the connection is made from inside it. Usage: node relay.mjs <adapter argv...>
import { spawn } from 'node:child_process';
import net from 'node:net';

const [file, ...args] = process.argv.slice(2);
const adapter = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
let connected = false;
let seen = '';
adapter.stdout.on('data', (chunk) => {
  if (connected) return void process.stderr.write(chunk);
  seen += chunk.toString('utf8');
  const match = /listening at:?\s*\[?([\d.:a-f]+?)\]?:(\d+)/i.exec(seen);
  if (!match) return;
  connected = true;
  const socket = net.connect({ host: match[1], port: Number(match[2]) });
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  socket.on('close', () => {
    adapter.kill('SIGTERM');
    process.exit(0);
  });
  socket.on('error', (error) => {
    process.stderr.write(`relay: ${error.message}\n`);
    process.exit(1);
  });
});
adapter.on('exit', (code) => process.exit(code ?? 1));
process.stdin.on('end', () => adapter.kill('SIGTERM'));
