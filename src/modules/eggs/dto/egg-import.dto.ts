import { IsUUID, isUUID } from 'class-validator';
import { PaginationQueryDto } from 'src/common/http/pagination';
import { AppException } from 'src/common/errors/app.exception';
import { CommonError } from 'src/common/errors/error-codes';
import { Optional } from 'src/common/validation/decorators';

export class EggListQueryDto extends PaginationQueryDto {
  @Optional()
  @IsUUID()
  nestId?: string;
}

/**
 * The import body is a PTDL document, whose fields are checked by parsePtdl, wrapped as
 * `{nestId, egg}` or sent bare with `?nestId=`.
 */
export const importTarget = (body: unknown, queryNestId: unknown): { nestId: string; document: unknown } => {
  const wrapped = body !== null && typeof body === 'object' && 'egg' in body && !('meta' in body);
  const nestId = wrapped ? (body as { nestId?: unknown }).nestId : queryNestId;
  if (wrapped) {
    const extra = Object.keys(body).filter((k) => k !== 'egg' && k !== 'nestId');
    if (extra.length > 0) {
      throw new AppException(CommonError.VALIDATION_FAILED, {
        details: extra.map((field) => ({ field, message: `property ${field} should not exist` })),
      });
    }
  }
  if (typeof nestId !== 'string' || !isUUID(nestId)) {
    throw new AppException(CommonError.VALIDATION_FAILED, {
      details: [{ field: 'nestId', message: 'nestId must be a UUID (in the body with `egg`, or as ?nestId=)' }],
    });
  }
  return { nestId, document: wrapped ? (body).egg : body };
};
