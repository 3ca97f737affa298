import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** The value must equal another property of the same object (a repeated password). */
export function Matches(property: string, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'matchesProperty',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [property],
      options,
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          return value === (args.object as Record<string, unknown>)[args.constraints[0] as string];
        },
      },
    });
}
