import { currentSession } from "@/server/session/current";
import { HomeView } from "./_home/home-view";

// The figures load in the browser (HomeView); the greeting comes with the page.
export default async function HomePage() {
  const session = await currentSession();
  const firstName = session?.user.name.split(" ")[0] ?? "there";
  return <HomeView firstName={firstName} />;
}
