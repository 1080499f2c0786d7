import type { FieldRow, OperationView, ParamRow, ResponseView, TagView } from "./openapi-view";
import { C, Code, Inline, Method } from "./ui";

const TH = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";

function Required() {
  return <span className="ml-1.5 text-xs font-semibold text-red-700">required</span>;
}

function Params({ params }: { params: ParamRow[] }) {
  return (
    <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
      {params.map((p) => (
        <li key={`${p.in}:${p.name}`} className="px-3 py-2 text-sm">
          <div className="flex flex-wrap items-baseline gap-x-2">
            <code className="font-mono font-semibold break-all text-slate-900">{p.name}</code>
            <span className="text-xs text-slate-600">
              {p.in} · {p.type}
            </span>
            {p.required && <Required />}
          </div>
          {p.description && (
            <p className="mt-0.5 text-slate-700">
              <Inline text={p.description} />
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

function Fields({ fields }: { fields: FieldRow[] }) {
  if (fields.length === 0) return <p className="text-sm text-slate-600">No fields.</p>;
  return (
    <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm [&>li]:py-2 [&>li]:pr-3">
      {fields.map((f, i) => (
        <li key={i} style={{ paddingLeft: `${0.75 + f.depth * 1.25}rem` }}>
          <div className="flex flex-wrap items-baseline gap-x-2">
            {f.depth > 0 && (
              <span className="text-slate-400" aria-hidden>
                ↳
              </span>
            )}
            <code className="font-mono font-semibold break-all text-slate-900">{f.name}</code>
            <span className="text-xs break-all text-slate-600">{f.type}</span>
            {f.required && <Required />}
          </div>
          {f.description && (
            <p className="mt-0.5 text-slate-700">
              <Inline text={f.description} />
            </p>
          )}
          {f.values && (
            <p className="mt-0.5 text-xs text-slate-600">
              One of:{" "}
              {f.values.map((v, j) => (
                <span key={v}>
                  {j > 0 && ", "}
                  <C>{v}</C>
                </span>
              ))}
            </p>
          )}
          {f.notes.length > 0 && <p className="mt-0.5 text-xs text-slate-600">{f.notes.join(" · ")}</p>}
        </li>
      ))}
    </ul>
  );
}

const h4 = "mt-5 mb-2 text-sm font-semibold text-slate-900";

function Responses({ responses }: { responses: ResponseView[] }) {
  return (
    // Cell styles set once on the table: 98 operations' tables make the page's largest part.
    <div className="rounded-md border border-slate-200">
      <table className="w-full table-fixed text-sm text-slate-700 [&_td]:px-3 [&_td]:py-2 [&_td]:align-top [&_td]:[overflow-wrap:anywhere] [&_td:first-child]:font-mono [&_td:first-child]:font-semibold [&_td:last-child]:font-mono [&_td:last-child]:text-xs [&_tr+tr]:border-t [&_tr+tr]:border-slate-100">
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={`${TH} w-20`}>
              Status
            </th>
            <th scope="col" className={TH}>
              Description
            </th>
            <th scope="col" className={`${TH} w-1/3`}>
              Schema
            </th>
          </tr>
        </thead>
        <tbody>
          {responses.map((r) => (
            <tr key={r.status} className={r.status.startsWith("2") ? "text-emerald-800" : undefined}>
              <td>{r.status}</td>
              <td className="text-slate-700">
                <Inline text={r.description} />
              </td>
              <td>{r.schema}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The answers every operation may give, listed once (each operation's table links here). */
export function SharedResponses({ responses }: { responses: ResponseView[] }) {
  if (responses.length === 0) return null;
  return (
    <section id="every-operation" aria-labelledby="every-operation-title" className="scroll-mt-20 pt-6">
      <h3 id="every-operation-title" className="text-base font-semibold text-slate-900">
        Answers every operation may give
      </h3>
      <p className="mt-1 mb-3 text-sm text-slate-700">
        Besides its own, listed with it. Each is a problem (<code className="font-mono">application/problem+json</code>) with a{" "}
        <code className="font-mono">code</code> and a <code className="font-mono">requestId</code>.
      </p>
      <Responses responses={responses} />
    </section>
  );
}

function Operation({ op }: { op: OperationView }) {
  const groups = (["path", "query", "header"] as const)
    .map((where) => ({ where, params: op.params.filter((p) => p.in === where) }))
    .filter((g) => g.params.length > 0);
  return (
    <article id={op.id} aria-labelledby={`${op.id}-title`} className="scroll-mt-20 border-t border-slate-200 py-6">
      <h3 id={`${op.id}-title`} className="text-lg font-semibold text-slate-900">
        <a href={`#${op.id}`} className="hover:underline">
          {op.summary}
        </a>
      </h3>
      <p className="mt-2 flex items-start gap-2">
        <Method method={op.method} />
        <code className="min-w-0 font-mono text-sm break-all text-slate-800">{op.path}</code>
      </p>
      {op.permission && (
        <p className="mt-2 text-sm text-slate-700">
          API key permission: <C>{op.permission}</C>
        </p>
      )}
      {op.description && (
        <p className="mt-2 text-[15px] leading-7 text-slate-700">
          <Inline text={op.description} />
        </p>
      )}
      {groups.map((g) => (
        <section key={g.where} aria-label={`${op.summary}: ${g.where} parameters`}>
          <h4 className={h4}>{g.where[0]!.toUpperCase() + g.where.slice(1)} parameters</h4>
          <Params params={g.params} />
        </section>
      ))}
      {op.bodies.map((b) => (
        <section key={b.contentType} aria-label={`${op.summary}: request body ${b.contentType}`}>
          <h4 className={h4}>
            Request body <span className="font-normal text-slate-600">· {b.contentType}</span>
            {b.schemaName && <span className="font-normal text-slate-600"> · {b.schemaName}</span>}
          </h4>
          <Fields fields={b.fields} />
        </section>
      ))}
      <h4 className={h4}>Responses</h4>
      <Responses responses={op.responses} />
      <p className="mt-2 text-xs text-slate-600">
        And the{" "}
        <a href="#every-operation" className="font-medium text-brand-700 underline">
          answers every operation may give
        </a>
        .
      </p>
      <h4 className={h4}>Example</h4>
      <Code label={`${op.summary}: curl example`}>{op.curl}</Code>
    </article>
  );
}

export function Reference({ tags }: { tags: TagView[] }) {
  return (
    <>
      {tags.map((tag) => (
        <section key={tag.id} id={tag.id} aria-labelledby={`${tag.id}-title`} className="scroll-mt-20 pt-8">
          <h2 id={`${tag.id}-title`} className="text-2xl font-semibold tracking-tight text-slate-900">
            {tag.name}
          </h2>
          {tag.operations.map((op) => (
            <Operation key={op.id} op={op} />
          ))}
        </section>
      ))}
    </>
  );
}
