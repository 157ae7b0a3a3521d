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
 * any syscall of a foreign ABI (i386's `socketcall`, x32), and a new user
 * namespace (`unshare` or `clone` with `CLONE_NEWUSER`): in one, a process
 * holds every capability over a mount namespace of its own, and could bind a
 * weakened file over a base test the judging runs hold by a mount. `clone3`
 * passes its flags in memory, which the filter cannot read: it answers ENOSYS,
 * as Docker's default profile does, and libc falls back to `clone`.
 */

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff_0000;
const RET_EPERM = 0x0005_0000 | 1;
const RET_ENOSYS = 0x0005_0000 | 38;
const CLONE_NEWUSER = 0x1000_0000;
const AF_UNIX = 1;
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0 = 16;

interface ArchNumbers {
  readonly audit: number;
  readonly socket: number;
  /** Refused outright: io_uring_setup, pidfd_getfd, add_key, request_key, keyctl. */
  readonly denied: readonly number[];
  /** Refused with CLONE_NEWUSER in their first argument. */
  readonly unshare: number;
  readonly clone: number;
  readonly clone3: number;
  /** x86-64 also decodes x32 syscalls (nr | 0x40000000) under its own arch value. */
  readonly x32Bit?: number;
}

const ARCHES: Readonly<Record<string, ArchNumbers>> = {
  x64: {
    audit: 0xc000_003e,
    socket: 41,
    denied: [425, 438, 248, 249, 250],
    unshare: 272,
    clone: 56,
    clone3: 435,
    x32Bit: 0x4000_0000,
  },
  arm64: {
    audit: 0xc000_00b7,
    socket: 198,
    denied: [425, 438, 217, 218, 219],
    unshare: 97,
    clone: 220,
    clone3: 435,
  },
};

interface Instruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

const op = (code: number, k: number, jt = 0, jf = 0): Instruction => ({ code, jt, jf, k });

type Label = 'allow' | 'namespaces' | 'deny' | 'enosys';

/** The instructions, with jumps as offsets from the next instruction. */
const program = (numbers: ArchNumbers, allowUnixSockets: boolean): Instruction[] => {
  // Built with jumps named by target, then resolved. The tail: allow; the
  // namespace flags' check (reached by a jump only) and its allow; deny; ENOSYS.
  type Pending = { code: number; k: number; onTrue?: Label; onFalse?: Label };
  const steps: Pending[] = [
    { code: BPF_LD_W_ABS, k: OFFSET_NR },
    ...(numbers.x32Bit === undefined
      ? []
      : [{ code: BPF_JGE_K, k: numbers.x32Bit, onTrue: 'deny' as const }]),
    ...numbers.denied.map((nr) => ({ code: BPF_JEQ_K, k: nr, onTrue: 'deny' as const })),
    { code: BPF_JEQ_K, k: numbers.clone3, onTrue: 'enosys' },
    { code: BPF_JEQ_K, k: numbers.unshare, onTrue: 'namespaces' },
    { code: BPF_JEQ_K, k: numbers.clone, onTrue: 'namespaces' },
    ...(allowUnixSockets
      ? []
      : [
          { code: BPF_JEQ_K, k: numbers.socket, onFalse: 'allow' as const },
          { code: BPF_LD_W_ABS, k: OFFSET_ARG0 },
          { code: BPF_JEQ_K, k: AF_UNIX, onTrue: 'deny' as const },
        ]),
  ];
  const tail: Array<Pending & { label: Label }> = [
    { label: 'allow', code: BPF_RET_K, k: RET_ALLOW },
    { label: 'namespaces', code: BPF_LD_W_ABS, k: OFFSET_ARG0 },
    { label: 'namespaces', code: BPF_JSET_K, k: CLONE_NEWUSER, onTrue: 'deny' },
    // Jumps run forward only: the namespace check falls through to its own allow.
    { label: 'namespaces', code: BPF_RET_K, k: RET_ALLOW },
    { label: 'deny', code: BPF_RET_K, k: RET_EPERM },
    { label: 'enosys', code: BPF_RET_K, k: RET_ENOSYS },
  ];
  const all = [...steps, ...tail];
  const at = (label: Label): number =>
    steps.length + tail.findIndex((step) => step.label === label);
  const target = (name: Label | undefined, from: number): number => {
    const offset = name === undefined ? 0 : at(name) - (from + 1);
    if (offset < 0 || offset > 255) throw new Error(`seccomp jump to ${name} out of range`);
    return offset;
  };
  const body = all.map((step, index) =>
    op(step.code, step.k, target(step.onTrue, index), target(step.onFalse, index)),
  );
  // A foreign arch skips the whole body to the deny.
  return [op(BPF_LD_W_ABS, OFFSET_ARCH), op(BPF_JEQ_K, numbers.audit, 0, at('deny')), ...body];
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
