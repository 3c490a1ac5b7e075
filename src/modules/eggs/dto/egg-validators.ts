import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidationArguments } from 'class-validator';
import { duplicateImageName, envNameProblem, jsonText, normalizeDockerImages } from 'src/modules/eggs/egg-fields';
import { parseRules, RuleParseError } from 'src/modules/eggs/rules/variable-rules';

/** Accepts a name → image map, a list of images or a list of {name, image}; yields the ordered list. */
export const IsDockerImages = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => normalizeDockerImages(value)),
    ValidateBy({
      name: 'isDockerImages',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && duplicateImageName(value as { name: string; image: string }[]) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          typeof args?.value === 'string'
            ? args.value
            : `dockerImages has the name "${duplicateImageName(args?.value as { name: string; image: string }[]) ?? ''}" twice`,
      },
    }),
  );

/** A JSON document given as an object or as JSON text; stored as text. */
export const IsJsonText = ({ objectOnly }: { objectOnly?: boolean } = {}): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' || typeof value === 'object' ? (jsonText(value) ?? value) : value)),
    ValidateBy({
      name: 'isJsonText',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') {
            return false;
          }
          try {
            const parsed: unknown = JSON.parse(value);
            return !objectOnly || (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed));
          } catch {
            return false;
          }
        },
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} must be valid JSON${objectOnly ? ' describing an object' : ''}`,
      },
    }),
  );

export const IsEnvName = (): PropertyDecorator =>
  ValidateBy({
    name: 'isEnvName',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && envNameProblem(value) === undefined,
      defaultMessage: (args?: ValidationArguments) =>
        typeof args?.value === 'string' ? (envNameProblem(args.value) ?? '') : 'envVariable must be a string',
    },
  });

/** Laravel-style rules that parse; unknown rules are refused, not ignored. */
export const IsVariableRules = (): PropertyDecorator =>
  ValidateBy({
    name: 'isVariableRules',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') {
          return false;
        }
        try {
          parseRules(value);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: (args?: ValidationArguments) => {
        if (typeof args?.value !== 'string') {
          return 'rules must be a string';
        }
        try {
          parseRules(args.value);
          return '';
        } catch (e) {
          return `rules: ${e instanceof RuleParseError ? e.message : String(e)}`;
        }
      },
    },
  });
