// Sample data: the dashboard's "Load sample data" on an empty home in test mode (no REST route).
import { SampleDataResult, SampleDataState } from "@/lib/schemas/sample-data";
import { loadSampleData, sampleDataState } from "@/server/demo/service";
import { operation } from "./operation";

export const sampleDataOperations = [
  operation({
    name: "sampleData.load",
    auth: ["session"],
    permission: "write",
    kind: "mutation",
    output: SampleDataResult,
    dashboard: true,
    // The button's lighter set (a few seconds); `npm run demo` loads the full one.
    handler: ({ actor }) => loadSampleData(actor, "light"),
  }),
  operation({
    name: "sampleData.status",
    auth: ["session"],
    permission: "read",
    kind: "query",
    output: SampleDataState,
    dashboard: true,
    // Whether a load stopped part-way: the home then offers to finish it.
    handler: ({ actor }) => sampleDataState(actor),
  }),
];
