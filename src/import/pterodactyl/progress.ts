/**
 * Progress of an import, one kind after another: a bar redrawn in place on a terminal, plain lines
 * (at the start, every 10 % and at the end of each kind) anywhere else, so that logs stay readable.
 */
export interface ImportProgress {
  start(kind: string, total: number): void;
  advance(n: number): void;
  done(): void;
}

const BAR_WIDTH = 30;

export class StreamProgress implements ImportProgress {
  private kind = '';
  private total = 0;
  private seen = 0;
  private lastStep = -1;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly tty = out.isTTY === true,
  ) {}

  start(kind: string, total: number): void {
    this.kind = kind;
    this.total = total;
    this.seen = 0;
    this.lastStep = -1;
    this.draw();
  }

  advance(n: number): void {
    this.seen += n;
    this.draw();
  }

  done(): void {
    if (this.tty) {
      this.out.write(`\r${this.line()}\n`);
    } else if (this.lastStep < 10) {
      this.out.write(`${this.line()}\n`);
    }
  }

  private line(): string {
    const fraction = this.total === 0 ? 1 : Math.min(1, this.seen / this.total);
    const figures = `${this.seen.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')}`;
    if (!this.tty) {
      return `${this.kind}: ${figures} (${Math.floor(fraction * 100)} %)`;
    }
    const filled = Math.round(fraction * BAR_WIDTH);
    return `${this.kind.padEnd(24)} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${figures}`;
  }

  private draw(): void {
    if (this.tty) {
      this.out.write(`\r${this.line()}`);
      return;
    }
    const step = this.total === 0 ? 10 : Math.floor(Math.min(1, this.seen / this.total) * 10);
    if (step > this.lastStep) {
      this.lastStep = step;
      this.out.write(`${this.line()}\n`);
    }
  }
}
