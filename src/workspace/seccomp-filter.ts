import { RegreenError } from '../errors.ts';

/**
 * The seccomp program regreen hands to bubblewrap (`--seccomp FD`) for
 * processes that must trace their children with ptrace (debug adapters).
 *
 * sandbox-runtime's own helper blocks `socket(AF_UNIX)` but runs the command
 * in a nested PID namespace whose `/proc` it cannot mount (bubblewrap's locked
 * overmounts forbid it), so a debugger opens `/proc/<pid>` of the wrong
 * process. Applied by bubblewrap itself, with `--as-pid-1` so that no
 * unfiltered reaper shares the namespace, this filter keeps the same rule for
 * every process in the sandbox (the proxy bridges included: a debug session
 * has no network) and the PID namespace stays single.
 *
 * Classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args from 16;
 * little-endian on both supported architectures). Refused with EPERM:
 * `socket(AF_UNIX, …)`, `io_uring_setup` (io_uring can open sockets past
 * seccomp), `pidfd_getfd` (taking another process's descriptors), any
 * syscall of a foreign ABI (i386's `socketcall`, x32).
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
  readonly ioUringSetup: number;
  readonly pidfdGetfd: number;
  /** x86-64 also decodes x32 syscalls (nr | 0x40000000) under its own arch value. */
  readonly x32Bit?: number;
}

const ARCHES: Readonly<Record<string, ArchNumbers>> = {
  x64: { audit: 0xc000_003e, socket: 41, ioUringSetup: 425, pidfdGetfd: 438, x32Bit: 0x4000_0000 },
  arm64: { audit: 0xc000_00b7, socket: 198, ioUringSetup: 425, pidfdGetfd: 438 },
};

interface Instruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

const op = (code: number, k: number, jt = 0, jf = 0): Instruction => ({ code, jt, jf, k });

/** The instructions, with jumps as offsets from the next instruction. */
const program = (numbers: ArchNumbers): Instruction[] => {
  const deny = op(BPF_RET_K, RET_EPERM);
  const allow = op(BPF_RET_K, RET_ALLOW);
  const head: Instruction[] = [op(BPF_LD_W_ABS, OFFSET_ARCH)];
  // Jumps count from the next instruction: the tail is always allow, deny.
  const body: Instruction[] = [
    op(BPF_LD_W_ABS, OFFSET_NR),
    ...(numbers.x32Bit === undefined ? [] : [op(BPF_JGE_K, numbers.x32Bit, 6, 0)]),
    op(BPF_JEQ_K, numbers.ioUringSetup, 5, 0),
    op(BPF_JEQ_K, numbers.pidfdGetfd, 4, 0),
    op(BPF_JEQ_K, numbers.socket, 0, 2),
    op(BPF_LD_W_ABS, OFFSET_ARG0),
    op(BPF_JEQ_K, AF_UNIX, 1, 0),
    allow,
    deny,
  ];
  // A foreign arch skips the whole body to the final deny.
  head.push(op(BPF_JEQ_K, numbers.audit, 0, body.length - 1));
  return [...head, ...body];
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
export const unixSocketFilter = (arch: string = process.arch): Buffer => {
  const numbers = ARCHES[arch];
  if (!numbers) {
    throw new RegreenError(
      'sandbox-unavailable',
      `no seccomp filter for ${arch}: debuggers that trace with ptrace need x64 or arm64 in the asrt sandbox`,
    );
  }
  return encode(program(numbers));
};

/** For tests and review: the program in a readable form. */
export const describeFilter = (arch: string = process.arch): string[] => {
  const numbers = ARCHES[arch];
  if (!numbers) return [];
  return program(numbers).map(
    (instruction, index) =>
      `${index}: code=0x${instruction.code.toString(16)} jt=${instruction.jt} jf=${instruction.jf} k=0x${(instruction.k >>> 0).toString(16)}`,
  );
};
