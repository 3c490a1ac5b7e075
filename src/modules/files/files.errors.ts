import { ErrorCategory, ErrorDef } from 'src/common/errors/error-codes';

export const FilesError = {
  PATH_INVALID: { code: 'FILE_PATH_INVALID', category: ErrorCategory.BAD_REQUEST, message: 'The path is not valid inside the server' },
  NOT_FOUND: { code: 'FILE_NOT_FOUND', category: ErrorCategory.NOT_FOUND, message: 'The file or directory does not exist' },
  NOT_A_FILE: { code: 'FILE_NOT_A_FILE', category: ErrorCategory.BAD_REQUEST, message: 'Only regular files can be copied' },
  TOO_LARGE: { code: 'FILE_TOO_LARGE', category: ErrorCategory.PAYLOAD_TOO_LARGE, message: 'The upload is larger than this server allows' },
  TOO_LARGE_TO_VIEW: { code: 'FILE_TOO_LARGE_TO_VIEW', category: ErrorCategory.BAD_REQUEST, message: 'The file is too large to open' },
  COPY_FAILED: { code: 'FILE_COPY_FAILED', category: ErrorCategory.BAD_GATEWAY, message: 'The daemon did not create the copy' },
} satisfies Record<string, ErrorDef>;
