/**
 * Runs a load of something held whole in memory (a table's worth: the nodes' origins, the panel's
 * settings) one at a time: a reload asked for while one runs marks it stale, and once it ends another
 * starts, because the running one may have read the table before the change. A failed load is passed
 * to `failed` and keeps what the last one loaded.
 */
export class Reloader {
  private loading: Promise<void> | null = null;
  private stale = false;

  constructor(
    private readonly load: () => Promise<void>,
    private readonly failed: (err: unknown) => void,
  ) {}

  reload(): Promise<void> {
    if (this.loading) {
      this.stale = true;
      return this.loading;
    }
    this.stale = false;
    this.loading = this.load()
      .catch(this.failed)
      .finally(() => {
        this.loading = null;
        if (this.stale) {
          void this.reload();
        }
      });
    return this.loading;
  }

  /**
   * Loads again and resolves once that load (and any a change during it started) has ended: what a
   * writer reads back after its own change commits, when a load started before the commit may be running.
   */
  async refresh(): Promise<void> {
    void this.reload();
    await this.settled();
  }

  /** Resolves once no load is running, including one a change during the last load started. */
  async settled(): Promise<void> {
    while (this.loading) {
      await this.loading;
    }
  }
}
