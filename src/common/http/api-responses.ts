import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';

/**
 * How routes declare their successful answers in the OpenAPI document (the web client is generated
 * from it). Answers wrap their result as `{data}` (docs/api.md#conventions), which a class cannot
 * express generically, so these build the wrapper schema around the DTO's own schema. The handler's
 * return type names the same DTO, so the compiler checks that the answer matches what is declared.
 */

class PaginationDto {
  @ApiProperty()
  total!: number;

  @ApiProperty()
  count!: number;

  @ApiProperty()
  perPage!: number;

  @ApiProperty()
  currentPage!: number;

  @ApiProperty()
  totalPages!: number;
}

export class PageMetaDto {
  @ApiProperty({ type: PaginationDto })
  pagination!: PaginationDto;
}

class CursorDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'The cursor of the rows after this page (older, in a newest-first list); null at the end' })
  next!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'The cursor of the rows before this page; null on the first page and at the start' })
  prev!: string | null;

  @ApiProperty()
  count!: number;

  @ApiProperty()
  perPage!: number;
}

/** The meta of a cursor page (a request with `?cursor=`): no total, no page numbers. */
class CursorPageMetaDto {
  @ApiProperty({ type: CursorDto })
  cursor!: CursorDto;
}

const ref = (model: Type) => ({ $ref: getSchemaPath(model) });

type Model = Type | Type[] | SchemaObject;
const isSchema = (model: Model): model is SchemaObject => typeof model === 'object' && !Array.isArray(model);
const modelsOf = (model: Model): Type[] => (isSchema(model) ? [] : Array.isArray(model) ? model : [model]);
/** A class's schema; one of several classes'; or a schema given as is (for a `string[]`, say). */
const schemaOf = (model: Model): SchemaObject | ReferenceObject =>
  isSchema(model) ? model : Array.isArray(model) ? { oneOf: model.map(ref) } : ref(model);

/** `{data: Model}` (or `{data: Model[]}`), answered with `status` (200 unless given). */
export const ApiData = (model: Model, options: { status?: number; isArray?: boolean; description?: string } = {}) =>
  applyDecorators(
    ApiExtraModels(...modelsOf(model)),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? '',
      schema: { type: 'object', required: ['data'], properties: { data: options.isArray ? { type: 'array', items: schemaOf(model) } : schemaOf(model) } },
    }),
  );

/**
 * A page of a list: `{data: Model[], meta: {pagination}}` (src/common/http/pagination.ts). `meta`
 * replaces the meta class for lists whose meta says more; `extra` adds top-level fields; `cursor`
 * says the list also answers cursor pages, whose meta is `{cursor}` (src/common/http/cursor.ts).
 */
export const ApiPage = (model: Type, options: { meta?: Type<PageMetaDto>; extra?: Record<string, SchemaObject>; cursor?: boolean } = {}) => {
  const meta = options.meta ?? PageMetaDto;
  const metaSchema = options.cursor ? { oneOf: [ref(meta), ref(CursorPageMetaDto)] } : ref(meta);
  return applyDecorators(
    ApiExtraModels(model, meta, CursorPageMetaDto),
    ApiResponse({
      status: 200,
      description: 'One page of the list',
      schema: {
        type: 'object',
        required: ['data', 'meta', ...Object.keys(options.extra ?? {})],
        properties: { data: { type: 'array', items: ref(model) }, meta: metaSchema, ...options.extra },
      },
    }),
  );
};

/** `{data: Model, meta: Meta}`: a change whose side effect (a push to the node) the meta reports. */
export const ApiDataWithMeta = (model: Type, meta: Type, options: { status?: number } = {}) =>
  applyDecorators(
    ApiExtraModels(model, meta),
    ApiResponse({
      status: options.status ?? 200,
      description: '',
      schema: { type: 'object', required: ['data', 'meta'], properties: { data: ref(model), meta: ref(meta) } },
    }),
  );

/** Accepted: the work goes on in the background, and the answer has no body. */
export const ApiAccepted = (description: string) => ApiResponse({ status: 202, description });

/** An answer that is not JSON (a file's text, a YAML configuration). */
export const ApiText = (contentType: string, description: string) =>
  ApiResponse({ status: 200, description, content: { [contentType]: { schema: { type: 'string' } } } });

/**
 * A JSON answer in a format another program defines (Wings' configuration, a PTDL egg file): the
 * document points at where the format is written down instead of repeating it.
 */
export const ApiFreeForm = (description: string, options: { status?: number; contentTypes?: string[] } = {}) =>
  ApiResponse({
    status: options.status ?? 200,
    description,
    content: Object.fromEntries(
      (options.contentTypes ?? ['application/json']).map((type): [string, { schema: SchemaObject }] => [
        type,
        { schema: type === 'application/json' ? { type: 'object', additionalProperties: true, description } : { type: 'string', description } },
      ]),
    ),
  });
