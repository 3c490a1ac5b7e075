import { CATEGORY_STATUS, ErrorDef } from 'src/common/errors/error-codes';

/** The one exception services throw; the global filter turns it into the error body of docs/api.md#errors. */
export class AppException extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;

  /** `status` overrides the category's status: a daemon's own HTTP error keeps its status. */
  constructor(def: ErrorDef, options: { message?: string; details?: unknown; status?: number } = {}) {
    super(options.message ?? def.message);
    this.name = 'AppException';
    this.code = def.code;
    this.status = options.status ?? CATEGORY_STATUS[def.category];
    this.details = options.details;
  }
}
