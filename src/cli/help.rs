//! Checks of the console's help text: every flag described, the server-wide settings kept apart
//! from a command's own flags, no empty environment values shown.

use super::Cli;
use crate::config::GLOBAL_OPTIONS;
use clap::CommandFactory;

/// Every command of the console, with its path ("game create").
fn all_commands() -> Vec<(String, clap::Command)> {
    fn walk(path: String, cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            walk(format!("{path} {}", sub.get_name()).trim().to_string(), sub, out);
        }
        out.push((path, cmd.clone()));
    }
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = Vec::new();
    walk(String::new(), &cmd, &mut out);
    out
}

#[test]
fn every_flag_of_every_command_has_a_description() {
    let mut missing = Vec::new();
    for (path, cmd) in all_commands() {
        for arg in cmd.get_arguments().filter(|a| !["help", "version"].contains(&a.get_id().as_str())) {
            if arg.get_help().is_none_or(|h| h.to_string().trim().is_empty()) {
                missing.push(format!("{path}: --{}", arg.get_id()));
            }
        }
    }
    assert!(missing.is_empty(), "flags without a description:\n{}", missing.join("\n"));
}

#[test]
fn the_server_settings_are_listed_apart_from_a_commands_own_flags() {
    let (_, create) =
        all_commands().into_iter().find(|(p, _)| p == "game create").expect("game create exists");
    for arg in create.get_arguments().filter(|a| a.is_global_set()) {
        assert_eq!(arg.get_help_heading(), Some(GLOBAL_OPTIONS), "--{}", arg.get_id());
    }
    for own in ["engine", "name", "players", "options"] {
        let arg = create.get_arguments().find(|a| a.get_id() == own).expect("the flag exists");
        assert_eq!(arg.get_help_heading(), None, "--{own} is listed with the command's own flags");
    }
    let help = create.clone().render_long_help().to_string();
    let (own, global) = help.split_once(GLOBAL_OPTIONS).expect("a heading for the global options");
    assert!(own.contains("--engine") && !own.contains("--database-url"), "{own}");
    assert!(global.contains("--database-url") && !global.contains("--engine"), "{global}");
}

#[test]
fn the_help_shows_no_empty_environment_values() {
    for (path, cmd) in all_commands() {
        let help = cmd.clone().render_long_help().to_string();
        assert!(!help.contains("=]"), "{path}: {help}");
    }
}

#[test]
fn every_setting_is_in_the_readmes_configuration_table() {
    let readme = include_str!("../../README.md");
    let cmd = Cli::command();
    let missing: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_env())
        .map(|env| env.to_string_lossy().into_owned())
        .filter(|env| !readme.contains(&format!("| `{env}` |")))
        .collect();
    assert!(missing.is_empty(), "settings missing from README.md's table: {missing:?}");
}
