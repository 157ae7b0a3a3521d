import { RegreenError } from '../../errors.ts';

/**
 * The seccomp program bubblewrap applies (`--seccomp FD`) to every sandboxed
 * command, before it execs anything: with `--as-pid-1` there is no other
 * process in the sandbox's PID namespace, so no unfiltered process exists that
 * code in the sandbox could ptrace or write through `/proc/<pid>/mem` (the
 * hole in sandbox-runtime's own helper, which filtered the command but not
 * itself nor the proxy bridges beside it).
 *
 * Classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args from 16;
 * little-endian on both supported architectures). Refused with EPERM:
 * `socket(AF_UNIX, …)` (unless the command is the setup step, whose own proxy
 * bridge needs it — its mount view holds no unix socket of the host's but
 * the proxy's), `io_uring_setup` (io_uring can open sockets past seccomp),
 * `pidfd_getfd` (taking another process's descriptors), the kernel keyring
 * calls (`add_key`, `request_key`, `keyctl`: no key of regreen's session or
 * user keyring can be read, and none can be planted for a later process),
 * any syscall of a foreign ABI (i386's `socketcall`, x32).
 */

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff_0000;
const RET_EPERM = 0x0005_0000 | 1;
const AF_UNIX = 1;
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0 = 16;

interface ArchNumbers {
  readonly audit: number;
  readonly socket: number;
  /** Refused outright: io_uring_setup, pidfd_getfd, add_key, request_key, keyctl. */
  readonly denied: readonly number[];
  /** x86-64 also decodes x32 syscalls (nr | 0x40000000) under its own arch value. */
  readonly x32Bit?: number;
}

const ARCHES: Readonly<Record<string, ArchNumbers>> = {
  x64: {
    audit: 0xc000_003e,
    socket: 41,
    denied: [425, 438, 248, 249, 250],
    x32Bit: 0x4000_0000,
  },
  arm64: { audit: 0xc000_00b7, socket: 198, denied: [425, 438, 217, 218, 219] },
};

interface Instruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

const op = (code: number, k: number, jt = 0, jf = 0): Instruction => ({ code, jt, jf, k });

/** The instructions, with jumps as offsets from the next instruction. */
const program = (numbers: ArchNumbers, allowUnixSockets: boolean): Instruction[] => {
  // Built with jumps named by target, then resolved: the tail is always allow, deny.
  type Pending = { code: number; k: number; onTrue?: 'deny' | 'allow'; onFalse?: 'allow' };
  const steps: Pending[] = [
    { code: BPF_LD_W_ABS, k: OFFSET_NR },
    ...(numbers.x32Bit === undefined
      ? []
      : [{ code: BPF_JGE_K, k: numbers.x32Bit, onTrue: 'deny' as const }]),
    ...numbers.denied.map((nr) => ({ code: BPF_JEQ_K, k: nr, onTrue: 'deny' as const })),
    ...(allowUnixSockets
      ? []
      : [
          { code: BPF_JEQ_K, k: numbers.socket, onFalse: 'allow' as const },
          { code: BPF_LD_W_ABS, k: OFFSET_ARG0 },
          { code: BPF_JEQ_K, k: AF_UNIX, onTrue: 'deny' as const },
        ]),
  ];
  const allowAt = steps.length;
  const denyAt = steps.length + 1;
  const target = (name: 'deny' | 'allow' | undefined, at: number): number =>
    name === undefined ? 0 : (name === 'deny' ? denyAt : allowAt) - (at + 1);
  const body: Instruction[] = [
    ...steps.map((step, at) =>
      op(step.code, step.k, target(step.onTrue, at), target(step.onFalse, at)),
    ),
    op(BPF_RET_K, RET_ALLOW),
    op(BPF_RET_K, RET_EPERM),
  ];
  // A foreign arch skips the whole body to the final deny.
  return [op(BPF_LD_W_ABS, OFFSET_ARCH), op(BPF_JEQ_K, numbers.audit, 0, body.length - 1), ...body];
};

const encode = (instructions: readonly Instruction[]): Buffer => {
  const buffer = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, index) => {
    const at = index * 8;
    buffer.writeUInt16LE(instruction.code, at);
    buffer.writeUInt8(instruction.jt, at + 2);
    buffer.writeUInt8(instruction.jf, at + 3);
    buffer.writeUInt32LE(instruction.k >>> 0, at + 4);
  });
  return buffer;
};

/** The filter as bubblewrap reads it from a descriptor: an array of `struct sock_filter`. */
export const unixSocketFilter = (
  arch: string = process.arch,
  options: { allowUnixSockets?: boolean } = {},
): Buffer => {
  const numbers = ARCHES[arch];
  if (!numbers) {
    throw new RegreenError(
      'sandbox-unavailable',
      `no seccomp filter for ${arch}: the sandbox needs x64 or arm64 (or --sandbox none at your own risk)`,
    );
  }
  return encode(program(numbers, options.allowUnixSockets ?? false));
};

/** For tests and review: the program in a readable form. */
export const describeFilter = (
  arch: string = process.arch,
  options: { allowUnixSockets?: boolean } = {},
): string[] => {
  const numbers = ARCHES[arch];
  if (!numbers) return [];
  return program(numbers, options.allowUnixSockets ?? false).map(
    (instruction, index) =>
      `${index}: code=0x${instruction.code.toString(16)} jt=${instruction.jt} jf=${instruction.jf} k=0x${(instruction.k >>> 0).toString(16)}`,
  );
};
