import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The one error shape (docs/api.md#errors), as the OpenAPI document declares it for every 4xx and 5xx. */
export class ErrorResponseDto {
  @ApiProperty({ example: 404 })
  statusCode!: number;

  @ApiProperty({ description: 'Stable and machine-readable', example: 'SERVER_NOT_FOUND' })
  code!: string;

  @ApiProperty({ description: 'For people' })
  message!: string;

  @ApiPropertyOptional({
    description: 'What the code needs said: VALIDATION_FAILED gives [{field, message}], others an object',
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: { type: 'object', additionalProperties: true } },
    ],
  })
  details?: unknown;

  @ApiProperty({ description: 'Also in the x-request-id header and the log line of the request' })
  requestId!: string;
}
