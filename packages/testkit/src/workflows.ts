/** Workflows in the YAML format that several suites edit, run or ask the copilot about. */

/** Start → agent "Writer" (summarises the input) → Slack "Notify" posting the writer's content to C123. */
export const AGENT_AND_SLACK_YAML = `version: "1.0"
blocks:
  start:
    type: starter
    name: Start
    inputs:
      startWorkflow: manual
    connections:
      - writer
  writer:
    type: agent
    name: Writer
    inputs:
      systemPrompt: Summarise the input.
      userPrompt: <start.input>
    connections:
      - notify
  notify:
    type: slack
    name: Notify
    inputs:
      operation: send
      channel: C123
      text: <writer.content>
`;
