import type { ReactNode } from "react";

/** A labelled text field of a guide's GET form, with its error tied to it. */
export function GuideField({
  name,
  label,
  value,
  error,
  hint,
  inputMode = "decimal",
  size,
}: {
  name: string;
  label: string;
  value: string;
  error?: string;
  hint?: ReactNode;
  inputMode?: "decimal" | "numeric" | "text";
  size?: number;
}) {
  const id = `guide-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="text"
        inputMode={inputMode}
        defaultValue={value}
        size={size}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled select of a guide's GET form. */
export function GuideSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  const id = `guide-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
