"""The unit tests that take seconds each — whole matches, property runs, the command line in a
child process — kept out of the fast tier (``bash scripts/test.sh --fast``) by the ``heavy``
marker; the full run and the compiled pass run them. Chosen from ``pytest --durations=0`` of
the unit tier on the project's 2-core machine (each ≥ about 1 s alone, together about three
quarters of the tier's time); listed here, by test id without parameters, rather than
decorated in each file. ``tests/test_tiers.py`` checks that every entry still names a test."""

from __future__ import annotations

HEAVY: frozenset[str] = frozenset({
    "tests/analysis/test_decompose.py::test_decompositions_exist_iff_can_win",
    "tests/analysis/test_profiles.py::test_suit_profile_matches_brute_force",
    "tests/bots/test_bots.py::test_bots_play_legal_actions_to_the_end",
    "tests/game/test_game_properties.py::TestMatchMachine::runTest",
    "tests/game/test_game_properties.py::test_random_matches_with_house_rules",
    "tests/game/test_game_verify.py::test_verify_cli_ok",
    "tests/game/test_game_verify.py::test_verify_cli_rejects_tampering",
    "tests/game/test_refusal.py::test_win_offers_and_refusals_match_the_scorer",
    "tests/scoring/test_properties.py::test_house_generator_reaches_the_house_rules",
    "tests/scoring/test_properties.py::test_scores_are_zero_sum_and_consistent",
    "tests/scoring/test_properties.py::test_scores_with_house_rules_are_zero_sum_and_consistent",
    "tests/scoring/test_scenarios.py::test_input_error",
    "tests/server/competitions/test_tourn_api.py::test_one_organiser_has_a_few_open_tournaments_at_most",
    "tests/server/competitions/test_tourn_units.py::test_swiss_avoids_a_repeated_four_whenever_possible",
    "tests/server/net/test_server_protocol.py::test_auto_play_timeout_and_escape",
    "tests/server/net/test_server_protocol.py::test_resync_and_reconnect_resume_the_same_seat",
    "tests/server/net/test_server_protocol.py::test_rooms_list_and_replay_after_match",
    "tests/server/persistence/test_migrations.py::test_a_fresh_database_agrees_with_the_models",
    "tests/server/persistence/test_migrations.py::test_a_pre_alembic_database_upgrades_with_its_rows",
    "tests/server/persistence/test_migrations.py::test_every_model_module_is_in_all_models",
    "tests/server/persistence/test_migrations.py::test_the_command_line_checks_and_upgrades",
    "tests/server/persistence/test_migrations.py::test_the_developers_alembic_ini_works",
    "tests/server/tables/test_audit.py::test_laizi_check_bad_input_is_one_line",
    "tests/server/tables/test_audit.py::test_laizi_check_finds_each_kind_of_damage",
    "tests/server/tables/test_server_frames.py::test_cached_views_and_streams_equal_the_reference_projections",
    "tests/test_arena.py::test_cli_bad_input_exits_2",
    "tests/test_arena.py::test_cli_json_and_plot",
    "tests/test_arena.py::test_workers_give_identical_statistics",
    "tests/test_compiled.py::test_backend_compiles_only_on_request",
    "tests/test_examples.py::test_custom_bot",
    "tests/test_examples.py::test_replay_a_given_log",
    "tests/test_examples.py::test_replay_own_match",
    "tests/test_examples.py::test_simulate_matches_the_library",
    "tests/test_hints.py::test_hints_never_fail_on_odd_states",
    "tests/test_hygiene.py::test_mypy_clean",
    "tests/test_review.py::test_the_review_orders_random_greedy_strong_expert",
    "tests/test_rulecatalog.py::test_the_cli_prints_the_card",
    "tests/test_rulecatalog.py::test_the_cli_refuses_bad_input_in_one_line",
    "tests/test_sim.py::test_sim_json_is_reproducible_for_any_worker_count",
    "tests/test_sim.py::test_sim_plot",
    "tests/test_sim.py::test_sim_progress_goes_to_stderr",
    "tests/tui/test_tui.py::test_bad_options_are_one_line_errors",
    "tests/tui/test_tui.py::test_chinese_is_the_default",
    "tests/tui/test_tui.py::test_discard_by_typing_a_tile",
    "tests/tui/test_tui.py::test_eof_and_quit_exit_cleanly",
})
