// The Chromium processes a run starts under this process, sampled from /proc: their CPU and memory.
import { readFileSync } from 'node:fs';
import { descendantsOf } from '../../libs/runtime/index.js';
import { rssBytesOf } from './process-tree.js';

/** Linux reports CPU time in clock ticks of 1/100 s. */
const CLOCK_TICKS = 100;

export interface ChromiumUsage {
  /**
   * CPU seconds (user + system) the Chromium processes used while sampled: each one's own time
   * when last seen. A process's last moments (under one interval) and a process that lived less
   * than one interval are not in it; its children's time is not counted twice through its cutime.
   */
  cpuSeconds: number;
  /** Proportional set size of the Chromium processes together at its peak (shared pages split). */
  peakPss: number;
  /** Their resident sets summed at the peak (pages they share counted in each). */
  peakRss: number;
  /** Chromium processes seen in all. */
  processes: number;
  samples: number;
  /** The sampling's own time in this process (reading /proc, smaps_rollup above all). */
  samplerSeconds: number;
}

const isChromium = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('chrom');
  } catch {
    return false;
  }
};

/** A process's own user + system CPU seconds, or null when it is gone. */
function ownCpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

function pssBytesOf(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Samples the Chromium processes descended from this one until stopped: their CPU every `everyMs`,
 * their memory every `memoryEveryMs` (reading a Chromium's smaps_rollup costs milliseconds, which
 * this process spends beside the run). Those already running when it starts count from their CPU
 * time then.
 */
export function sampleChromium(everyMs = 100, memoryEveryMs = 500) {
  const memoryEvery = Math.max(1, Math.round(memoryEveryMs / everyMs));
  const firstSeen = new Map<number, number>();
  const lastSeen = new Map<number, number>();
  const usage: ChromiumUsage = {
    cpuSeconds: 0,
    peakPss: 0,
    peakRss: 0,
    processes: 0,
    samples: 0,
    samplerSeconds: 0,
  };
  const take = (initial: boolean) => {
    const started = performance.now();
    const withMemory = usage.samples % memoryEvery === 0;
    let pss = 0;
    let rss = 0;
    for (const pid of descendantsOf(process.pid)) {
      if (!lastSeen.has(pid) && !isChromium(pid)) continue;
      const cpu = ownCpuSeconds(pid);
      if (cpu === null) continue;
      if (!firstSeen.has(pid)) firstSeen.set(pid, initial ? cpu : 0);
      lastSeen.set(pid, cpu);
      if (!withMemory) continue;
      pss += pssBytesOf(pid);
      rss += rssBytesOf(pid);
    }
    usage.peakPss = Math.max(usage.peakPss, pss);
    usage.peakRss = Math.max(usage.peakRss, rss);
    usage.samples++;
    usage.samplerSeconds += (performance.now() - started) / 1000;
  };
  take(true);
  const timer = setInterval(() => take(false), everyMs);
  return {
    stop(): ChromiumUsage {
      clearInterval(timer);
      take(false);
      usage.processes = lastSeen.size;
      usage.cpuSeconds = [...lastSeen].reduce((sum, [pid, cpu]) => sum + cpu - (firstSeen.get(pid) ?? 0), 0);
      return usage;
    },
  };
}
