/**
 * Whether a periodic sweep for lost work runs now. Its MongoDB queries scan (FerretDB reads only
 * by primary key without one), and while events wait in the queue what it finds is queued, not
 * lost: so a sweep is put off while there is a backlog, `maxPutOff` times in a row at most (a
 * notifier busy for good still sweeps now and then). A loss of Redis's data is swept for at once
 * by its own watch.
 */
export class SweepPacing {
  private putOff = 0;

  constructor(private readonly maxPutOff: number) {}

  /** Whether this tick's sweep runs, with `waiting` events queued and not yet taken. */
  due(waiting: number): boolean {
    if (waiting === 0 || this.putOff >= this.maxPutOff) {
      this.putOff = 0;
      return true;
    }
    this.putOff++;
    return false;
  }
}
