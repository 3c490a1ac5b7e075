import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * How routes declare their successful answers in the OpenAPI document (the web client is generated
 * from it). Answers wrap their result as `{data}` (docs/api.md#conventions), which a class cannot
 * express generically, so these build the wrapper schema around the DTO's own schema. The handler's
 * return type names the same DTO, so the compiler checks that the answer matches what is declared.
 */

export class PaginationDto {
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

/** A page of a list: `{data: Model[], meta: {pagination}}` (src/common/http/pagination.ts). */
export const ApiPage = (model: Type) =>
  applyDecorators(
    ApiExtraModels(model, PageMetaDto),
    ApiResponse({
      status: 200,
      description: 'One page of the list',
      schema: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref(model) }, meta: ref(PageMetaDto) } },
    }),
  );

/** An answer that is not JSON (a file's text, a YAML configuration). */
export const ApiText = (contentType: string, description: string) =>
  ApiResponse({ status: 200, description, content: { [contentType]: { schema: { type: 'string' } } } });
